import { onTestFinished, type RunnerTestCase } from 'vitest'
import type { MockWorld } from '../testing/mock-world.js'

/** Where `attachWorldOnFailure` writes, and what it does after. */
export interface AttachWorldOnFailureOptions {
  /**
   * The folder the bundles go to; default `test-results/mock-world` under the
   * working directory (Vitest's root as usually started; Playwright's
   * `test-results/` beside it). Vitest has no output folder of its own for
   * this: `attachmentsDir` only takes annotations made while a test runs.
   */
  dir?: string | undefined
  /**
   * Delete the world when the test ends, pass or fail, once its bundle is
   * written. Default `false`; needed when the world would otherwise be deleted
   * in `afterEach`, which runs before the test's end hooks: too early.
   */
  deleteWorld?: boolean | undefined
}

// The default folder, under the working directory.
const WORLD_BUNDLE_DIR = 'test-results/mock-world'

/**
 * When the current test fails, writes the bundle of its world on a simulator
 * server (`world.bundle()`: everything `multi-area-mock serve --replay`
 * rebuilds it from, passwords sealed, journal redacted) to
 * `<dir>/<test file>--<test name>.json` (owner-only, 0600: it holds the
 * world's password hashes), and prints that path on stderr.
 * Call it in the test or in `beforeEach`, once the world exists; the world
 * must outlive the test (or pass `deleteWorld: true`). A bundle that cannot be
 * taken or written is a warning on stderr: it never hides the test's failure.
 *
 * @example
 * import { attachWorldOnFailure } from 'multi-area-mock/vitest'
 * test('checkout', async () => {
 *   const world = await createMockWorld(process.env.MULTI_AREA_MOCK_URL!)
 *   attachWorldOnFailure(world, { deleteWorld: true })
 *   // ... a failure here leaves test-results/mock-world/checkout-test-ts--checkout.json
 * })
 */
export function attachWorldOnFailure(world: MockWorld, options: AttachWorldOnFailureOptions = {}): void {
  // onTestFinished rather than onTestFailed: it runs first, so `deleteWorld` can come after the bundle.
  onTestFinished(async ({ task }) => {
    try {
      if (task.result?.state === 'fail') await writeBundle(world, options.dir ?? WORLD_BUNDLE_DIR, fileNameOf(task))
    } finally {
      if (options.deleteWorld) await world.delete()
    }
  })
}

async function writeBundle(world: MockWorld, dir: string, name: string): Promise<void> {
  try {
    const bundle = await world.bundle()
    // Imported here, not at the top: the entry also serves Vitest's browser mode, which has no node:fs.
    const [{ mkdir }, { relative, resolve }, { replaceFile }] = await Promise.all([import('node:fs/promises'), import('node:path'), import('../node/files/safe-replace.js')])
    const file = resolve(dir, name)
    await mkdir(resolve(dir), { recursive: true })
    // The file's name is made here: a new owner-only (0600) file renamed in, as every file holding password
    // hashes, so a link or an older file at that name is replaced, never written through.
    const text = `${JSON.stringify(bundle, null, 2)}\n`
    await replaceFile(file, (handle) => handle.writeFile(text))
    console.warn(`multi-area-mock: the world "${world.worldId}" of this failed test is in ${relative(process.cwd(), file)} (multi-area-mock serve --replay rebuilds it)`)
  } catch (error) {
    console.warn(`multi-area-mock: the bundle of world "${world.worldId}" could not be written: ${(error as Error).message}`)
  }
}

/** `<test file>--<suites>-<test name>.json` (the file relative to Vitest's root), as slugs: one file per test. */
function fileNameOf(task: RunnerTestCase): string {
  const names = [task.name]
  for (let suite = task.suite; suite !== undefined && suite !== task.file; suite = suite.suite) names.unshift(suite.name)
  return `${slug(task.file.name) || 'test'}--${slug(names.join(' ')) || 'test'}.json`
}

/** Letters and digits of any script kept, the rest one `-`. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .slice(0, 100)
    .replace(/^-+|-+$/g, '')
}
