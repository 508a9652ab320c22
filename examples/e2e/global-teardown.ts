import { rmSync } from 'node:fs'

/**
 * After the run, while the simulator server still runs: every test's world must
 * be gone (the `mock` fixture deletes it, pass or fail). Throws otherwise, which
 * fails the run.
 */
export default async function globalTeardown(): Promise<void> {
  if (process.env.E2E_RUN_DIR) rmSync(process.env.E2E_RUN_DIR, { recursive: true, force: true })
  const response = await fetch(`${process.env.MULTI_AREA_MOCK_URL}/__mock/worlds`)
  const { worlds } = (await response.json()) as { worlds: Array<{ id: string }> }
  if (worlds.length > 0) throw new Error(`${worlds.length} world(s) left on the simulator server after the run: ${worlds.map((world) => world.id).join(', ')}`)
  console.log('global teardown: no world left on the simulator server')
}
