/**
 * `multi-area-mock verify` (docs/verify.md): every check passes against our
 * own CLI server in each dispatch mode, and against a deliberately divergent
 * implementation (test/support/divergent-server.ts) each divergence is
 * reported by its check and nothing else fails. Also: what verify leaves of a
 * world it ran against, --read-only, an unreachable or HTML target, and the
 * CLI's table, exit code and JUnit/JSON reports.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CheckResult, verify } from '../src/verify/index.js'
import { type CliServer, runCli, startCli } from './support/cli-server.js'
import { DIVERGENCES, type DivergentServer, startDivergentServer } from './support/divergent-server.js'

const SECRET = 'verify-test-secret'
/** Values of the seeded world the checks cannot create (seed 1, default scenario). */
const FIXTURES = { product: 'prod-1001', resource: '1', token: 'mam', validator: '0x87148ec17A1bD256911257B51321a032a2826C8e', 'jwt-secret': SECRET }

const failuresOf = (results: CheckResult[]) => results.filter((result) => result.status === 'fail').map((result) => `${result.name}: ${result.reason}`)

describe.each(['fast', 'msw'])('verify against our own server (--dispatch %s)', (dispatch) => {
  let server: CliServer
  beforeAll(async () => {
    server = await startCli(['--seed', '1', '--jwt-secret', SECRET, '--quiet', '--dispatch', dispatch])
  })
  afterAll(() => server?.stop())

  it('passes every check, none skipped', async () => {
    const report = await verify({ target: server.url, fixtures: FIXTURES })
    expect(failuresOf(report.results)).toEqual([])
    expect(report.summary).toMatchObject({ failed: 0, skipped: 0, score: 100 })
    expect(report.summary.passed).toBeGreaterThanOrEqual(55)
  }, 60_000)
})

describe('what verify changes', () => {
  let server: CliServer
  beforeAll(async () => {
    server = await startCli(['--seed', '1', '--jwt-secret', SECRET, '--quiet'])
  })
  afterAll(() => server?.stop())

  const state = async () => (await (await fetch(`${server.url}/__mock/state`)).json()) as any

  it('changes and deletes nothing it did not create, and removes the users it created', async () => {
    const before = await state()
    const report = await verify({ target: server.url, fixtures: FIXTURES })
    expect(report.summary.failed).toBe(0)
    const after = await state()
    const users = (world: any) => world.accounts.users.filter((user: any) => !user.username.startsWith('mam-verify-'))
    const withoutLogin = (list: any[]) => list.map(({ last_login: _login, ...user }: any) => user)
    expect(withoutLogin(users(after))).toEqual(withoutLogin(users(before)))
    expect(after.accounts.users.filter((user: any) => user.username.startsWith(report.prefix))).toEqual([])
    expect(after.core.products).toEqual(before.core.products)
    const data = (world: any) => world.general.resources.map(({ updated_at: _at, ...resource }: any) => resource)
    expect(data(after)).toEqual(data(before))
  }, 60_000)

  it('with --read-only makes no write at all and skips the checks that would', async () => {
    const journal = async () => ((await (await fetch(`${server.url}/__mock/requests?limit=1000`)).json()) as { entries: Array<{ method: string }> }).entries
    await fetch(`${server.url}/__mock/reset`, { method: 'POST' })
    const report = await verify({ target: server.url, fixtures: FIXTURES, readOnly: true })
    expect(report.summary.failed).toBe(0)
    expect(report.summary.passed).toBeGreaterThan(10)
    expect(report.results.find((result) => result.name === 'admin.create-user')).toMatchObject({ status: 'skip', reason: expect.stringContaining('--read-only') })
    expect((await journal()).filter((entry) => entry.method !== 'GET')).toEqual([])
  }, 60_000)
})

describe('verify against a divergent implementation', () => {
  let divergent: DivergentServer
  beforeAll(async () => {
    divergent = await startDivergentServer()
  })
  afterAll(() => divergent?.close())

  it('reports each divergence by its check, and nothing else fails', async () => {
    const report = await verify({ target: divergent.url, fixtures: { ...FIXTURES, 'jwt-secret': divergent.secret } })
    const failed = report.results.filter((result) => result.status === 'fail').map((result) => result.name)
    expect(failed.sort()).toEqual(Object.keys(DIVERGENCES).sort())
    expect(report.summary.skipped).toBe(0)
    const reason = (name: string) => report.results.find((result) => result.name === name)!
    expect(reason('core.create-user')).toMatchObject({ expected: '201', actual: expect.stringMatching(/^200 /) })
    expect(reason('quantum.status').reason).toContain('load_percentage')
    expect(reason('admin.create-user.password-never-returned').reason).toContain('409')
    expect(reason('general.update-resource.expired-token')).toMatchObject({ expected: '401' })
    expect(reason('ledger.delegate.replay-refused')).toMatchObject({ expected: '409', actual: expect.stringMatching(/^202 /) })
  }, 60_000)

  it('exits 1 from the CLI, prints the table and writes JUnit and JSON reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verify-report-'))
    const fixtures = Object.entries({ ...FIXTURES, 'jwt-secret': divergent.secret }).flatMap(([name, value]) => ['--fixture', `${name}=${value}`])
    const run = await runCli(['verify', '--target', divergent.url, ...fixtures, '--report', join(dir, 'junit.xml')], 60_000)
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(`multi-area-mock: ${Object.keys(DIVERGENCES).length} of ${run.stdout.match(/of (\d+) checks/)![1]} checks failed.\n`)
    expect(run.stdout).toMatch(/Area A: admin {2}http:\/\/127\.0\.0\.1:\d+\/admin\n {2}POST \/api\/v1\.2\/users\n {4}pass {2}admin\.create-user /)
    expect(run.stdout).toMatch(/ {4}FAIL {2}core\.create-user +POST \/core\/users answered 200, expected 201\n +expected: 201\n +actual: {3}200 /)
    expect(run.stdout).toMatch(/\d+ passed, 7 failed, 0 skipped of \d+ checks; score \d+(\.\d)?%/)
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8')
    expect(junit).toMatch(/<testsuites name="multi-area-mock verify" tests="\d+" failures="7" errors="0" skipped="0"/)
    expect(junit).toContain('<testcase classname="ledger.POST /v1/stake/delegate" name="ledger.delegate.replay-refused"')
    expect(junit.match(/<failure /g)).toHaveLength(7)
    const json = JSON.parse(readFileSync(join(dir, 'junit.json'), 'utf8'))
    expect(json.summary).toMatchObject({ failed: 7, skipped: 0 })
    expect(
      json.results
        .filter((result: CheckResult) => result.status === 'fail')
        .map((result: CheckResult) => result.name)
        .sort(),
    ).toEqual(Object.keys(DIVERGENCES).sort())
  }, 60_000)
})

describe('verify against a target that cannot answer', () => {
  it('gives one failed line per check, never a crash, when nothing listens', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const report = await verify({ target: `http://127.0.0.1:${port}`, areas: ['quantum'] })
    expect(report.summary).toMatchObject({ passed: 0, failed: 9, skipped: 0 })
    for (const result of report.results)
      expect(result.reason).toMatch(new RegExp(`^(GET|POST) http://127\\.0\\.0\\.1:${port}/quantum/\\S+: connection refused \\(is the server running\\?\\)$`))
  })

  it('says so when the target answers HTML, or too slowly', async () => {
    const html = createServer((req, res) => {
      if (req.url?.includes('/ledger/')) return // never answers
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<!doctype html><h1>Welcome</h1>')
    })
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(html.address() as AddressInfo).port}`
      const report = await verify({ target: url, areas: ['quantum', 'ledger'], timeoutMs: 300, only: ['quantum.status', 'ledger.status'] })
      expect(report.results.map((result) => [result.name, result.status, result.reason])).toEqual([
        ['quantum.status', 'fail', 'the 200 answer departs from the document: expected a JSON body, got text/html: <!doctype html><h1>Welcome</h1>'],
        ['ledger.status', 'fail', `GET ${url}/ledger/v1/status: no answer within 300 ms`],
      ])
    } finally {
      html.closeAllConnections()
      html.close()
    }
  })

  it('refuses to start without a target', async () => {
    const run = await runCli(['verify'])
    expect(run).toMatchObject({ code: 1, stderr: 'multi-area-mock: verify needs --target <url> or --base <area>=<url>.\n' })
  })
})
