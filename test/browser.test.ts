import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFile } from 'node:fs/promises'
import { build } from 'esbuild'
import { type Browser, type BrowserContext, chromium, type ConsoleMessage, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildExample } from '../examples/browser/build.js'
import { type StaticServer, serveStatic } from '../examples/browser/static-server.js'
import { CHROMIUM_ARGS, CHROMIUM_PATH, requireChromium } from './support/chromium.js'

const OUT = join(process.cwd(), 'test-output', 'browser')
/** Every prefix the simulator answers: none of these may reach the static server. */
const SIMULATED = ['/admin', '/core', '/quantum', '/general', '/ledger', '/__mock']

describe('the browser entry in Chromium', () => {
  let browser: Browser
  let page: Page
  let site: StaticServer
  const consoleErrors: string[] = []
  const consoleGroups: string[] = []

  beforeAll(async () => {
    requireChromium()
    await mkdir(OUT, { recursive: true })
    await buildExample(join(OUT, 'site'))
    await buildProbe(join(OUT, 'site', 'probe'))
    site = await serveStatic(join(OUT, 'site'))
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error') consoleErrors.push(message.text())
      if (message.type() === 'startGroupCollapsed') consoleGroups.push(message.text())
    })
    page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`))
  })

  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  /** Opens the example with a query string and waits until the simulator is started. */
  async function open(query = ''): Promise<void> {
    await page.goto(`${site.url}/${query}`)
    await settle()
  }

  async function settle(): Promise<void> {
    await page.waitForSelector('body[data-ready]', { timeout: 15_000 })
    expect(await page.getAttribute('body', 'data-ready'), (await page.textContent('#status')) ?? '').toBe('true')
  }

  const status = async (key: string) => page.textContent(`#status dd[data-key="${key}"]`)
  const pending = async (): Promise<string[]> => JSON.parse((await page.textContent('#pending pre')) ?? '[]')

  /** What each flow section shows: its parsed result, or `failed: <message>`. */
  async function runFlows(): Promise<Record<string, any>> {
    await page.click('#run')
    await page.waitForSelector('body[data-flows="done"]', { timeout: 20_000 })
    const shown = await page.$$eval('section[data-flow]', (sections) =>
      sections.map((section) => ({ id: section.dataset.flow!, status: section.dataset.status, text: section.querySelector('pre')?.textContent ?? '' })),
    )
    return Object.fromEntries(shown.map(({ id, status, text }) => [id, status === 'ok' ? JSON.parse(text) : `failed: ${text}`]))
  }

  /** Requests to simulated prefixes that the static server saw (there must be none). */
  const leaked = () => site.requests.filter((line) => SIMULATED.some((prefix) => line.split(' ')[1]!.startsWith(prefix)))

  it('answers every flow inside the browser, through the service worker', async () => {
    await open()
    const worker = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready
      return { controller: navigator.serviceWorker.controller?.scriptURL, state: registration.active?.state }
    })
    expect(worker).toEqual({ controller: `${site.url}/mockServiceWorker.js`, state: 'activated' })
    expect(await status('worker')).toBe('active (/mockServiceWorker.js)')
    expect(await status('world')).toBe('seeded from the scenario')

    const flows = await runFlows()
    expect(Object.entries(flows).filter(([, shown]) => typeof shown === 'string')).toEqual([])

    // A: the created user is pending and listed with the 10 seeded pending users.
    expect(flows.admin.created).toMatchObject({ username: 'ada.browser', status: 'pending' })
    expect(flows.admin.pending.total).toBe(11)
    expect(flows.admin.pending.usernames).toContain('ada.browser')

    // B: the update is answered and read back.
    expect(flows.core.updated).toEqual({ id: 'prod-1001', price: 12.5, stock: 7 })
    expect(flows.core.readBack).toEqual({ price: 12.5, stock: 7 })
    expect(flows.core.before.price).not.toBe(12.5)

    // C: the partner was in superposition and collapsed to the opposite result on the same axis.
    expect(flows.quantum.partnerBefore).toBe('superposition')
    expect(flows.quantum.measured.partner).toBe(flows.quantum.pair.b)
    expect(['spin_up', 'spin_down']).toContain(flows.quantum.measured.result)
    expect(flows.quantum.measured.correlated).toBe(flows.quantum.measured.result === 'spin_up' ? 'spin_down' : 'spin_up')
    expect(flows.quantum.partnerAfter).toBe(flows.quantum.measured.correlated)

    // D: a real JWT from a seeded account opens PUT /resources/{id}; the read sees the write.
    expect(flows.general.login).toEqual({ tokenParts: 3, expiresIn: 3600 })
    expect(flows.general.updated).toEqual({ status: 200, title: 'Renamed in the browser' })
    expect(flows.general.read).toEqual({ id: 1, title: 'Renamed in the browser', owner: flows.general.owner })

    // E: a live chain, a fixture token with a big-integer supply, an accepted delegation.
    expect(flows.ledger.status).toMatchObject({ status: 'active', height: expect.any(Number), hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
    expect(flows.ledger.token).toMatchObject({ symbol: 'USDC', decimals: 6, supply: expect.stringMatching(/^\d+$/) })
    expect(flows.ledger.delegation.hash).toMatch(/^0x[0-9a-f]{64}$/)

    // Control API: the same world, without password hashes.
    expect(flows.control.health).toMatchObject({ status: 'ok', seed: 1, scenario: 'default' })
    expect(flows.control.health.areas).toEqual(['admin', 'core', 'quantum', 'general', 'ledger'])
    expect(flows.control.state).toEqual({ users: 49, products: 24, passwordHashesShown: false })

    expect(leaked()).toEqual([])
    expect(site.requests).toContain('GET /mockServiceWorker.js')
    // The simulator came as chunks of its own (loaded while msw's worker started), not inside app.js.
    expect(site.requests.filter((line) => /^GET \/[\w-]+\.js$/.test(line) && !['GET /app.js', 'GET /mockServiceWorker.js'].includes(line)).length).toBeGreaterThan(0)
    // One collapsed console group per answered request, msw style.
    expect(consoleGroups.some((text) => /^\[MSW\] \d\d:\d\d:\d\d POST \/admin\/api\/v1\.2\/users \(%c201/.test(text))).toBe(true)
    expect(consoleGroups.some((text) => text.includes('GET /__mock/state'))).toBe(true)
    await page.screenshot({ path: join(OUT, 'example.png'), fullPage: true })
    expect(consoleErrors).toEqual([])
  })

  it("keeps the world across a reload with persist: 'session', and a reset starts it fresh", async () => {
    await page.reload()
    await settle()
    expect(await status('world')).toBe('restored from storage')
    expect(await pending()).toContain('ada.browser')
    const product = await page.evaluate(async () => (await fetch('/core/products/prod-1001')).json())
    expect(product).toMatchObject({ price: 12.5, stock: 7 })

    await page.click('#reset')
    await page.waitForFunction(() => !document.querySelector('#pending pre')?.textContent?.includes('ada.browser'))
    await page.reload()
    await settle()
    expect(await status('world')).toBe('restored from storage')
    expect(await pending()).toHaveLength(10)
    expect(leaked()).toEqual([])
    expect(consoleErrors).toEqual([])
  })

  it('seeds every load without persist, and starts fresh for another scenario fetched by URL', async () => {
    await page.evaluate(() =>
      fetch('/admin/api/v1.2/users', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'kept.one', email: 'kept@example.com', password: 'Passw0rd!' }),
      }),
    )
    await open('?persist=off')
    expect(await status('world')).toBe('seeded from the scenario')
    expect(await pending()).not.toContain('kept.one')

    await open('?scenario=/scenarios/team.json')
    // Fetched from the network before the worker started, then named after the file.
    expect(site.requests).toContain('GET /scenarios/team.json')
    expect(await status('scenario')).toBe('team')
    expect(await status('seed')).toBe('7')
    expect(await status('world')).toBe('seeded from the scenario')
    expect(await pending()).toEqual(expect.arrayContaining(['team.lead']))
    expect(await pending()).toHaveLength(2)
    expect(leaked()).toEqual([])
    expect(consoleErrors).toEqual([])
  })
  /** The probe page (test/support/browser-probe.ts) in a fresh context: nothing started yet. */
  async function probe(context?: BrowserContext): Promise<Page> {
    const fresh = await (context ?? (await browser.newContext())).newPage()
    fresh.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`))
    await fresh.goto(`${site.url}/probe/`)
    await fresh.waitForSelector('body[data-probe="ready"]', { state: 'attached' })
    return fresh
  }

  it('holds a request sent while the simulator still loads, and answers it from the simulator', async () => {
    const context = await browser.newContext()
    // The simulator's chunk arrives late, so msw's worker is up well before the simulator is.
    await context.route('**/prepare-browser-simulator-*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500))
      await route.continue()
    })
    const fresh = await probe(context)
    const seen = await fresh.evaluate(async () => {
      const { start } = (globalThis as unknown as { probe: { start: (options: object) => Promise<unknown> } }).probe
      let started = false
      const starting = start({ quiet: true }).then(() => {
        started = true
      })
      // Until it resolves: the first requests reach the network (no worker yet), later ones
      // wait in the worker for the simulator.
      const sent: Array<Promise<{ status: number; total: number }>> = []
      while (!started) {
        sent.push(fetch('/admin/api/v1.2/users?limit=1').then((response) => ({ status: response.status, total: Number(response.headers.get('x-total-count')) })))
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      await starting
      return Promise.all(sent)
    })
    // Many, not one that happened to be on its way when the simulator came: they were held.
    const held = seen.filter((answer) => answer.status === 200 && answer.total === 48)
    expect(held.length, JSON.stringify(seen)).toBeGreaterThanOrEqual(10)
    // Every other answer came from the network, before the worker was active.
    expect(seen.filter((answer) => answer.status !== 200 && answer.status !== 404)).toEqual([])
    await context.close()
  })

  it('rejects an invalid option with a ConfigError, and leaves no worker answering', async () => {
    const fresh = await probe()
    const outcome = await fresh.evaluate(async () => {
      const { start } = (globalThis as unknown as { probe: { start: (options: object) => Promise<unknown> } }).probe
      const error = await start({ quiet: true, seed: -1 }).then(
        () => undefined,
        (caught: Error) => ({ name: caught.name, message: caught.message }),
      )
      return { error, after: (await fetch('/admin/api/v1.2/users')).status }
    })
    expect(outcome.error).toEqual({ name: 'ConfigError', message: expect.stringMatching(/^Invalid seed "-1" \(--seed\): /) })
    // The worker was stopped: the request went to the network, which has no such file.
    expect(outcome.after).toBe(404)
    expect(site.requests).toContain('GET /admin/api/v1.2/users')
    await fresh.context().close()
  })
})

/** Builds the probe page (test/support/browser-probe.ts) into `dir`, as the example is built. */
async function buildProbe(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>probe</title><link rel="icon" href="data:,"><script type="module" src="app.js"></script>\n')
  await build({
    entryPoints: [join(process.cwd(), 'test', 'support', 'browser-probe.ts')],
    outdir: dir,
    entryNames: 'app',
    splitting: true,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  })
}
