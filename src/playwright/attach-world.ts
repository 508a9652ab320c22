import type { TestInfo } from '@playwright/test'
import type { MockWorld } from '../testing/mock-world.js'

/** When the `mock` fixture attaches the bundle of the test's world to the test (`mockAttachWorld`). */
export type AttachWorldMode = 'on-failure' | 'always' | 'never'

/** The attachment's name in Playwright's reports. */
export const WORLD_ATTACHMENT = 'mock-world'

/**
 * Attaches the bundle of a test's world (`GET /__mock/bundle`) to the test as
 * `mock-world` (`application/json`): when it did not end as expected, or
 * always. Called before the world is deleted. Never throws: a bundle that
 * cannot be taken or attached must not hide the test's own failure (nor fail
 * a test that passed), so it becomes a `warning` annotation and a line on stderr.
 *
 * @example
 * await use(world)
 * await attachWorld(world, testInfo, 'on-failure')
 */
export async function attachWorld(world: MockWorld, testInfo: TestInfo, mode: AttachWorldMode): Promise<void> {
  const failed = testInfo.status !== testInfo.expectedStatus
  if (mode === 'never' || (mode === 'on-failure' && !failed)) return
  try {
    const bundle = await world.bundle()
    // Indented: people open it from the report to read it.
    await testInfo.attach(WORLD_ATTACHMENT, { body: JSON.stringify(bundle, null, 2), contentType: 'application/json' })
  } catch (error) {
    const description = `the bundle of world "${world.worldId}" could not be attached: ${(error as Error).message}`
    testInfo.annotations.push({ type: 'warning', description })
    console.warn(`multi-area-mock: ${description}`)
  }
}
