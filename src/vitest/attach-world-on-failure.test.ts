// attachWorldOnFailure as a Vitest user meets it: a Vitest run of its own (the
// CLI, in a folder of its own) whose tests fail on purpose, against a simulator
// server with a control token; the bundles it leaves are read back here.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReportedRun, runWithReport } from '../../test/support/run-with-report.js'
import { startServer, type RunningServer } from '../node/server/server.js'
import { replayBundle } from '../simulator/history/bundle-replay.js'
import { createSimulator } from '../simulator/create-simulator.js'
import { engineOf } from '../simulator/engine.js'
import { worldBundleSchema } from '../simulator/history/world-bundle.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const VITEST = join(createRequire(import.meta.url).resolve('vitest/package.json'), '../vitest.mjs')
// Under the repository, so the run's files find its node_modules.
const RUN = join(ROOT, 'test-output/vitest-attach-world')
const TOKEN = 'control-token-not-in-bundles'
const PASSWORD = 'correct horse battery'

const SOURCE = (file: string) => JSON.stringify(join(ROOT, 'src', file))

/** The run's test file: one test passes, two fail on purpose, one of them after losing its world. */
function testFile(url: string): string {
  return `import { writeFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { createMockWorld } from ${SOURCE('testing/mock-world.ts')}
import { attachWorldOnFailure } from ${SOURCE('vitest/index.ts')}

const open = (scenario) => createMockWorld(${JSON.stringify(url)}, { scenario, clock: '2026-01-01T00:00:00Z', controlToken: ${JSON.stringify(TOKEN)} })

test('passes, and leaves no bundle', async () => {
  const world = await open('empty')
  attachWorldOnFailure(world, { deleteWorld: true })
  expect((await world.fetch('/core/users')).status).toBe(200)
})

describe('checkout', () => {
  test('fails on purpose after changing its world', async () => {
    const world = await open('default')
    attachWorldOnFailure(world, { deleteWorld: true })
    expect((await world.fetch('/admin/api/v1.2/users', { method: 'POST', body: JSON.stringify({ username: 'ada', email: 'ada@example.com', password: ${JSON.stringify(PASSWORD)} }) })).status).toBe(201)
    expect((await world.fetch('/core/products/prod-1001', { method: 'PUT', body: JSON.stringify({ price: 12.5 }) })).status).toBe(200)
    const state = await world.fetch('/__mock/state', { headers: { authorization: 'Bearer ${TOKEN}' } })
    writeFileSync('state-at-failure.json', await state.text())
    expect('the total', 'fails on purpose').toBe('right')
  })
})

test('fails on purpose after its world is gone', async () => {
  const world = await open('empty')
  attachWorldOnFailure(world, { dir: 'elsewhere' })
  await world.delete()
  throw new Error('the test failed for its own reason')
})
`
}

interface VitestReport {
  testResults: Array<{ assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }> }>
}

/** `vitest run` in the run's folder (its working directory), with the JSON reporter and the default one. */
function runVitest(): Promise<ReportedRun<VitestReport>> {
  const args = ['run', '--reporter=json', '--outputFile=report.json', '--reporter=default', '--no-color']
  return runWithReport<VitestReport>(VITEST, args, { cwd: RUN, report: join(RUN, 'report.json'), name: 'vitest' })
}

describe('attachWorldOnFailure', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ port: 0, seed: 3, controlToken: TOKEN })
    rmSync(RUN, { recursive: true, force: true })
    mkdirSync(RUN, { recursive: true })
    writeFileSync(join(RUN, 'vitest.config.mjs'), `export default { test: { include: ['world.test.mjs'] } }\n`)
    writeFileSync(join(RUN, 'world.test.mjs'), testFile(server.url))
  })
  afterAll(() => server.close())

  it('writes the world of a failed test only, under test-results/mock-world, owner-only, rebuilding its state, no secret in clear', async () => {
    const run = await runVitest()
    const results = new Map(run.report.testResults.flatMap((file) => file.assertionResults).map((result) => [result.fullName, result]))
    expect(
      [...results].map(([name, result]) => [name, result.status]),
      run.output,
    ).toEqual([
      ['passes, and leaves no bundle', 'passed'],
      ['checkout fails on purpose after changing its world', 'failed'],
      ['fails on purpose after its world is gone', 'failed'],
    ])
    expect(run.code).toBe(1)
    // Each failure stays the test's own.
    expect(results.get('checkout fails on purpose after changing its world')!.failureMessages[0]).toContain("fails on purpose: expected 'the total' to be 'right'")
    expect(results.get('fails on purpose after its world is gone')!.failureMessages[0]).toContain('the test failed for its own reason')

    const dir = join(RUN, 'test-results/mock-world')
    expect(readdirSync(dir)).toEqual(['world-test-mjs--checkout-fails-on-purpose-after-changing-its-world.json'])
    const text = readFileSync(join(dir, readdirSync(dir)[0]!), 'utf8')
    // It holds the world's password hashes: owner-only, as the state file and every bundle the server writes.
    expect(statSync(join(dir, readdirSync(dir)[0]!)).mode & 0o777).toBe(0o600)
    expect(text).not.toContain(PASSWORD)
    expect(text).not.toContain(TOKEN)
    const bundle = worldBundleSchema.parse(JSON.parse(text))
    expect(bundle.commands.map((command) => `${command.method} ${new URL(command.url).pathname}`)).toEqual(['POST /admin/api/v1.2/users', 'PUT /core/products/prod-1001'])
    const atFailure = readFileSync(join(RUN, 'state-at-failure.json'), 'utf8')
    expect(bundle.state).toEqual(await digest(atFailure))
    const replayed = createSimulator({ ...bundle.options, clock: 'system' })
    await replayBundle(engineOf(replayed), bundle)
    expect(await (await replayed.fetch(new Request('http://sim.test/__mock/state'))!).text()).toBe(atFailure)
    // Its path, printed once; the lost world, a warning beside the test's own failure.
    expect(
      run.output.split('test-results/mock-world/world-test-mjs--checkout-fails-on-purpose-after-changing-its-world.json (multi-area-mock serve --replay rebuilds it)'),
    ).toHaveLength(2)
    expect(run.output).toMatch(/multi-area-mock: the bundle of world "[^"]+" could not be written: GET \/__mock\/bundle \(world "[^"]+"\) answered 404/)
    expect(existsSync(join(RUN, 'elsewhere'))).toBe(false)
    // deleteWorld: no world left behind by either test that asked for it.
    const worlds = await fetch(`${server.url}/__mock/worlds`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(((await worlds.json()) as { worlds: unknown[] }).worlds).toEqual([])
  }, 120_000)
})

async function digest(text: string): Promise<{ sha256: string; bytes: number }> {
  const bytes = new TextEncoder().encode(text)
  const hash = Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex')
  return { sha256: hash, bytes: bytes.length }
}
