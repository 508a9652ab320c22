/**
 * `multi-area-mock scenario from-har` (issue 34): a page in Debian's Chromium
 * reads Areas A, B and C of a "real backend" (a simulator with seed 7 and the
 * `entangled-pairs` scenario) while Playwright records a HAR file; the command
 * makes a scenario of it; `serve --scenario <it> --seed 99`, with no backend,
 * answers the same reads with the same status and body, byte for byte.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from './support/chromium.js'
import { type CliServer, runCli, startCli } from './support/cli-server.js'

const CLOCK = '2026-01-01T00:00:00Z'

/**
 * The app: reads users (one list covering all 48, then one user of it),
 * products (one unknown) and particles (a pair in superposition, a measured
 * pair) from the backend named in its query, as a browser app would.
 */
const PAGE = `<!doctype html>
<title>loading</title>
<script type="module">
  const api = new URLSearchParams(location.search).get('api')
  const reads = []
  const read = async (path) => {
    const response = await fetch(api + path)
    const text = await response.text()
    reads.push(path)
    return text
  }
  const users = JSON.parse(await read('/admin/api/v1.2/users?limit=100'))
  await read('/admin/api/v1.2/users/' + users[5].id)
  for (const id of ['prod-1001', 'prod-1003', 'no-such-product']) await read('/core/products/' + id)
  for (const id of ['electron-alice', 'electron-bob', 'positron-carol', 'positron-dave']) await read('/quantum/v1/particles/' + id)
  window.reads = reads
  document.title = 'done'
</script>`

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)))
}

async function answer(url: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) })
  return { status: response.status, body: await response.text() }
}

describe('scenario from-har', () => {
  let dir: string
  let upstream: CliServer
  let app: Server
  let browser: Browser
  let reads: string[]
  let harPath: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scenario-from-har-'))
    harPath = join(dir, 'session.har')
    upstream = await startCli(['--seed', '7', '--scenario', 'entangled-pairs', '--clock', CLOCK, '--quiet'])
    app = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE))
    const appUrl = await listen(app)
    browser = await launchChromium()
    const context = await browser.newContext({ recordHar: { path: harPath, content: 'embed' } })
    const page = await context.newPage()
    await page.goto(`${appUrl}/?api=${encodeURIComponent(upstream.url)}`)
    await page.waitForFunction(() => document.title === 'done', undefined, { timeout: 20_000 })
    reads = await page.evaluate(() => (window as unknown as { reads: string[] }).reads)
    // The HAR file is written when its context closes.
    await context.close()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await upstream?.stop()
    app?.closeAllConnections()
    await new Promise((resolve) => app?.close(resolve))
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('makes a scenario with which `serve --seed 99` answers the recorded reads as the backend did', async () => {
    const scenarioPath = join(dir, 'recorded.json')
    const made = await runCli(['scenario', 'from-har', harPath, '--out', scenarioPath], 30_000)
    expect(made.stderr).toMatch(/^admin: 48 records kept \(accounts\.users 48\); 0 answers not mapped$/m)
    expect(made.stderr).toMatch(/^core: /m)
    expect(made.stderr).toMatch(/^quantum: /m)
    // The page itself (and whatever else Chromium fetched from the app's host) is no area's.
    expect(made.stderr).toMatch(/^ignored: [1-9]\d* of \d+ entries .*: GET http:\/\/127\.0\.0\.1:\d+\/ \(200\)/m)
    expect(made.stdout).toBe('')
    expect(made.code).toBe(0)
    const text = await readFile(scenarioPath, 'utf8')
    expect(text.endsWith('}\n')).toBe(true)
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`)

    const replay = await startCli(['--scenario', scenarioPath, '--seed', '99', '--clock', CLOCK, '--quiet'])
    try {
      expect(reads).toHaveLength(9)
      for (const path of reads) {
        const replayed = await answer(`${replay.url}${path}`)
        const direct = await answer(`${upstream.url}${path}`)
        expect({ path, ...replayed }).toEqual({ path, ...direct })
      }
      // The list's total is what was recorded: every user, no more.
      const list = await fetch(`${replay.url}/admin/api/v1.2/users?limit=1`)
      expect(list.headers.get('x-total-count')).toBe('48')
    } finally {
      await replay.stop()
    }
  }, 60_000)

  it('prints the scenario on stdout, with the summary on stderr, when no --out is given', async () => {
    const made = await runCli(['scenario', 'from-har', harPath, '--seed', '5', '--scenario', 'empty'], 30_000)
    expect(made.code).toBe(0)
    const scenario = JSON.parse(made.stdout) as { seed: number; accounts: { users: unknown[] } }
    expect(scenario.seed).toBe(5)
    expect(scenario.accounts.users).toHaveLength(48)
    expect(made.stderr).toMatch(/^admin: 48 records kept/m)
  }, 30_000)

  it('says in one line, exit code 1, that a file is not a HAR file or is missing', async () => {
    const notHar = join(dir, 'scenario.json')
    await writeFile(notHar, JSON.stringify({ description: 'a scenario, not a HAR file', seed: 1 }))
    const notJson = join(dir, 'page.har')
    await writeFile(notJson, '<!doctype html><p>saved the page, not the HAR')
    const cases: Array<[string, RegExp]> = [
      [notHar, /^multi-area-mock: HAR file .*scenario\.json is not a HAR 1\.2 document \(log: .*\)\.\n$/],
      [notJson, /^multi-area-mock: HAR file .*page\.har is not JSON \(.*\); expected a HAR 1\.2 export\.\n$/],
      [join(dir, 'missing.har'), /^multi-area-mock: Cannot read HAR file .*missing\.har: no such file\.\n$/],
    ]
    for (const [file, message] of cases) {
      const run = await runCli(['scenario', 'from-har', file])
      expect(run.stderr).toMatch(message)
      expect(run.stdout).toBe('')
      expect(run.code).toBe(1)
    }
  }, 30_000)
})
