// A failing Playwright test's world in its report (issue 35), as a user meets it:
// a small Playwright project of its own run with `playwright test` in Debian's
// Chromium against the built CLI server (with a control token), with the JSON
// reporter. One test passes; one changes its world (a user created, a product
// updated) from the page, writes `GET /__mock/state` of its world to a file and
// fails on purpose. Only that test carries a `mock-world` attachment, a bundle
// with no secret in clear, which replays to the very state bytes written at the
// failure, in-process (replayBundle) and by `serve --replay`. Needs `npm run build` (part of `npm test`).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReportedRun, runWithReport } from './support/run-with-report.js'
import { replayBundle } from '../src/simulator/history/bundle-replay.js'
import { createSimulator } from '../src/simulator/create-simulator.js'
import { engineOf } from '../src/simulator/engine.js'
import { type WorldBundle, worldBundleSchema } from '../src/simulator/history/world-bundle.js'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium.js'
import { type CliServer, startCli } from './support/cli-server.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PLAYWRIGHT = createRequire(import.meta.url).resolve('@playwright/test/cli')
// Under the repository, so the project's files import `multi-area-mock/playwright` as the package itself.
const PROJECT = join(ROOT, 'test-output/playwright-report')
const REPORT = join(PROJECT, 'report.json')
const STATE_AT_FAILURE = join(PROJECT, 'state-at-failure.json')
const TOKEN = 'control-token-not-in-reports'
const PASSWORD = 'correct horse battery'

const CONFIG = `import { defineConfig } from '@playwright/test'
import type { MockOptions } from 'multi-area-mock/playwright'

export default defineConfig<MockOptions>({
  testDir: '.',
  outputDir: './results',
  workers: 2,
  fullyParallel: true,
  retries: 0,
  timeout: 30_000,
  use: {
    baseURL: process.env.MULTI_AREA_MOCK_URL,
    mockScenario: 'default',
    mockClock: '2026-01-01T00:00:00Z',
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: ${JSON.stringify(CHROMIUM_PATH)}, args: ${JSON.stringify(CHROMIUM_ARGS)} },
  },
})
`

const SPEC = `import { writeFileSync } from 'node:fs'
import { expect, test } from 'multi-area-mock/playwright'

test('passes: the page lists the users of its world', async ({ page, mock }) => {
  await page.goto('/core/users?limit=5')
  await expect(page.locator('body')).toContainText('"username"')
  await expect(mock).toHaveReceivedRequest({ method: 'GET', path: '/core/users' }, { times: 1 })
})

test('fails on purpose after changing its world', async ({ page, mock }) => {
  await page.goto('/core/users?limit=1')
  const statuses = await page.evaluate(async (password) => {
    const send = (method, path, body) => fetch(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const created = await send('POST', '/admin/api/v1.2/users', { username: 'ada', email: 'ada@example.com', password })
    const updated = await send('PUT', '/core/products/prod-1001', { price: 12.5 })
    return [created.status, updated.status]
  }, ${JSON.stringify(PASSWORD)})
  expect(statuses).toEqual([201, 200])
  const state = await mock.fetch('/__mock/state', { headers: { authorization: 'Bearer ' + process.env.MULTI_AREA_MOCK_CONTROL_TOKEN } })
  writeFileSync(${JSON.stringify(STATE_AT_FAILURE)}, await state.text())
  expect('the total', 'fails on purpose').toBe('right')
})
`

interface Attachment {
  name: string
  contentType: string
  path?: string
  body?: string
}
interface Result {
  status: string
  error?: { message?: string }
  attachments: Attachment[]
  annotations: Array<{ type: string; description?: string }>
}
interface Report {
  errors: Array<{ message?: string }>
  suites: Array<{ specs: Array<{ title: string; tests: Array<{ results: Result[] }> }> }>
}

/** `playwright test` in the project's folder, with the JSON reporter; its exit code, output and report. */
function runPlaywright(server: CliServer): Promise<ReportedRun<Report>> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MULTI_AREA_MOCK_URL: server.url,
    MULTI_AREA_MOCK_CONTROL_TOKEN: TOKEN,
    PLAYWRIGHT_JSON_OUTPUT_FILE: REPORT,
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    FORCE_COLOR: '0',
  }
  return runWithReport<Report>(PLAYWRIGHT, ['test', '-c', 'playwright.config.ts', '--reporter=json,line'], { cwd: PROJECT, env, report: REPORT, name: 'playwright test' })
}

/** An attachment's text, whether the reporter inlined it (base64) or left a file. */
function textOf(attachment: Attachment): string {
  return attachment.path === undefined ? Buffer.from(attachment.body ?? '', 'base64').toString('utf8') : readFileSync(attachment.path, 'utf8')
}

describe('the Playwright fixture: a failing test carries its world', () => {
  let server: CliServer
  beforeAll(async () => {
    server = await startCli(['--seed', '7', '--quiet'], 15_000, { MULTI_AREA_MOCK_CONTROL_TOKEN: TOKEN })
    rmSync(PROJECT, { recursive: true, force: true })
    mkdirSync(PROJECT, { recursive: true })
    writeFileSync(join(PROJECT, 'playwright.config.ts'), CONFIG)
    writeFileSync(join(PROJECT, 'world.spec.ts'), SPEC)
  })
  afterAll(() => server?.stop())

  it('attaches mock-world to the failed test only: a bundle, no secret in clear, that replays to the state at the failure', async () => {
    const run = await runPlaywright(server)
    expect(run.report.errors, run.output).toEqual([])
    expect(run.code, run.output).toBe(1)
    const byTitle = new Map(run.report.suites.flatMap((suite) => suite.specs).map((spec) => [spec.title, spec.tests[0]!.results[0]!]))
    const passed = byTitle.get('passes: the page lists the users of its world')!
    const failed = byTitle.get('fails on purpose after changing its world')!
    expect([passed.status, failed.status], run.output).toEqual(['passed', 'failed'])
    // The test's own failure, not hidden by the attachment; no warning about it either.
    expect(failed.error?.message).toContain('fails on purpose')
    expect([...passed.annotations, ...failed.annotations].filter((annotation) => annotation.type === 'warning')).toEqual([])

    expect(passed.attachments.filter((attachment) => attachment.name === 'mock-world')).toEqual([])
    const attached = failed.attachments.filter((attachment) => attachment.name === 'mock-world')
    expect(attached.map((attachment) => attachment.contentType)).toEqual(['application/json'])
    const text = textOf(attached[0]!)
    expect(text).not.toContain(PASSWORD)
    expect(text).not.toContain(TOKEN)
    const bundle: WorldBundle = worldBundleSchema.parse(JSON.parse(text))
    expect(bundle.commands.map((command) => `${command.method} ${new URL(command.url).pathname}`)).toEqual(['POST /admin/api/v1.2/users', 'PUT /core/products/prod-1001'])
    expect(bundle.journal.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toContain('POST /admin/api/v1.2/users 201')

    // Replayed elsewhere, the bundle gives the very bytes of GET /__mock/state the world held at the failure.
    const atFailure = readFileSync(STATE_AT_FAILURE, 'utf8')
    const replayed = createSimulator({ ...bundle.options, clock: 'system' })
    await replayBundle(engineOf(replayed), bundle)
    expect(await (await replayed.fetch(new Request('http://replay.test/__mock/state'))!).text()).toBe(atFailure)
    // And by the CLI, from the attachment saved as a file.
    const file = join(PROJECT, 'mock-world.json')
    writeFileSync(file, text)
    const replay = await startCli(['--replay', file, '--quiet'])
    try {
      expect(await (await fetch(`${replay.url}/__mock/state`)).text()).toBe(atFailure)
    } finally {
      await replay.stop()
    }

    // Both worlds were deleted after the run, the failed test's after its bundle was taken.
    const worlds = await fetch(`${server.url}/__mock/worlds`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(((await worlds.json()) as { worlds: unknown[] }).worlds).toEqual([])
  }, 180_000)
})
