// The end-to-end example (examples/e2e/) run as a user runs it: `playwright test`
// with Debian's Chromium, two workers, the built CLI server and the example app.
// Needs `npm run build` (part of `npm test`).
import { mkdirSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runWithReport } from './support/run-with-report.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PLAYWRIGHT = createRequire(import.meta.url).resolve('@playwright/test/cli')
const OUT = join(ROOT, 'test-output/e2e')

interface Result {
  status: string
  duration: number
  startTime: string
  parallelIndex: number
  error?: { message?: string }
}
interface Report {
  config: { workers: number }
  errors: Array<{ message?: string }>
  stats: { expected: number; unexpected: number; flaky: number; skipped: number }
  suites: Suite[]
}
interface Suite {
  title: string
  specs: Array<{ title: string; tests: Array<{ results: Result[] }> }>
  suites?: Suite[]
}

/** Runs one Playwright config with the JSON reporter; resolves with its exit code, output and report. */
async function runPlaywright(config: string, name: string): Promise<{ code: number | null; output: string; report: Report; seconds: number }> {
  mkdirSync(OUT, { recursive: true })
  const file = join(OUT, `${name}.json`)
  rmSync(file, { force: true })
  const env: NodeJS.ProcessEnv = { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: file, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', FORCE_COLOR: '0' }
  for (const key of ['E2E_MOCK_PORT', 'E2E_APP_PORT', 'E2E_RUN_DIR', 'MULTI_AREA_MOCK_URL']) delete env[key]
  const started = Date.now()
  const run = await runWithReport<Report>(PLAYWRIGHT, ['test', '-c', config, '--reporter=json,line'], { cwd: ROOT, env, report: file, name: `playwright test -c ${config}` })
  return { ...run, seconds: (Date.now() - started) / 1000 }
}

/** Every test of a report by title, with its (only) result. */
function results(report: Report): Map<string, Result> {
  const found = new Map<string, Result>()
  const walk = (suite: Suite, path: string[]) => {
    for (const spec of suite.specs) for (const test of spec.tests) found.set([...path, spec.title].join(' › '), test.results[0]!)
    for (const inner of suite.suites ?? []) walk(inner, [...path, inner.title])
  }
  for (const file of report.suites) walk(file, [])
  return found
}

const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '')

describe('examples/e2e: a Playwright suite with a world per test', () => {
  it('passes: at least 8 tests on 2 workers at once, racing writers overlap, and no world is left', async () => {
    const run = await runPlaywright('examples/e2e/playwright.config.ts', 'suite')
    const byTitle = results(run.report)
    const failures = [...byTitle].filter(([, result]) => result.status !== 'passed').map(([title, result]) => `${title}: ${plain(result.error?.message ?? result.status)}`)
    expect(failures, run.output).toEqual([])
    expect(run.report.errors, run.output).toEqual([])
    expect(run.code, run.output).toBe(0)
    expect(run.report.config.workers).toBe(2)
    expect(run.report.stats).toMatchObject({ unexpected: 0, flaky: 0, skipped: 0 })
    expect(run.report.stats.expected).toBeGreaterThanOrEqual(8)
    expect(new Set([...byTitle.values()].map((result) => result.parallelIndex))).toEqual(new Set([0, 1]))
    const titles = [...byTitle.keys()]
    for (const wanted of [
      'the server-rendered page lists exactly the people this test added',
      "the browser's own fetches see the same world as the server",
      'a sign-in token expires when the clock moves two hours on',
      "a fault on the admin API shows the server-rendered page's error state",
      "racing writer a never sees writer b's data",
      "racing writer b never sees writer a's data",
    ]) {
      expect(
        titles.some((title) => title.endsWith(wanted)),
        `${wanted} in ${titles.join('\n')}`,
      ).toBe(true)
    }
    const span = (title: string) => {
      const result = [...byTitle].find(([name]) => name.endsWith(title))![1]
      const start = Date.parse(result.startTime)
      return [start, start + result.duration] as const
    }
    const [a, b] = [span("racing writer a never sees writer b's data"), span("racing writer b never sees writer a's data")]
    expect(a[0] < b[1] && b[0] < a[1], 'the two racing writers ran at the same time').toBe(true)
    expect(run.output).toContain('global teardown: no world left on the simulator server')
    console.log(`examples/e2e suite: ${run.report.stats.expected} tests passed on 2 workers in ${run.seconds.toFixed(1)} s (servers included)`)
  }, 300_000)

  it("fails on purpose in a run of its own, with the matcher's message, and still leaves no world", async () => {
    const run = await runPlaywright('examples/e2e/playwright.failing.config.ts', 'failing')
    expect(run.code, run.output).toBe(1)
    expect(run.report.stats).toMatchObject({ expected: 0, unexpected: 1 })
    expect(run.report.errors, run.output).toEqual([])
    const [result] = [...results(run.report).values()]
    const message = plain(result!.error!.message!)
    expect(message).toContain('expect(mock).toHaveReceivedRequest(match)')
    expect(message).toContain('Expected: POST /admin/api/v1.2/users (body containing {"username":"grace"}), at least once')
    expect(message).toMatch(/Received: 0 matching requests among \d+ requests in the journal of world "[^"]+"/)
    expect(message).toMatch(
      /Closest \d entries \(of \d+ that differ\), - expected \+ received:\n {2}#\d+ POST \/admin\/api\/v1\.2\/users → 201 at 2026-01-01T00:00:00\.000Z\n +body\.username {2}- "grace"\n +\+ "ada"/,
    )
    expect(message).toContain('Timeout: 1000 ms')
    // The world of the failed test was deleted all the same.
    expect(run.output).toContain('global teardown: no world left on the simulator server')
  }, 300_000)
})
