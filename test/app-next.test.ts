/**
 * docs/browser.md's Next.js (App Router) recipes, run in real Next apps made
 * from test/apps/next/ and test/apps/next-browser/ with the packed package,
 * installed offline (test/apps/app-project.ts); the docs' blocks are these
 * files, checked first.
 *
 * - The CLI server: `next build` and `next start` on a free loopback port
 *   against a real CLI server; the page rendered on the server, a route
 *   handler and the browser's requests (through the rewrites, in Chromium)
 *   each answer from the world the page request names, so two tests' worlds
 *   give two answers (instrumentation.js and `propagateMockWorldFrom`).
 * - The browser entry behind the development-only guard (a client
 *   component around the app): `next build` leaves the simulator out of what
 *   the browser loads, and in `next dev` msw's worker answers the page, in
 *   Chromium. (`next dev` runs with test/apps/no-registry.mjs preloaded.)
 *
 * Needs `npm run build` (npm test does) and Debian's Chromium.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, appEnv, builtFiles, makeApp, ROOT, type Served, shownInDocs } from './apps/app-project.js'
import { freePort } from './support/free-port.js'
import { pack } from './docs/support/consumers.js'
import { type CliServer, startCli } from './support/cli-server.js'
import { launchChromium } from './support/chromium.js'

/** `next build` of a small app, cold, on a busy two-core machine. */
const TIMEOUT = 240_000

let work: string
let serverApp: App
let guardApp: App
let cli: CliServer
let browser: Browser

beforeAll(async () => {
  work = mkdtempSync(join(ROOT, 'test-output', 'app-next-'))
  const tarball = pack()
  ;[serverApp, guardApp, cli, browser] = await Promise.all([makeApp('next', tarball), makeApp('next-browser', tarball), startCli(['--quiet']), launchChromium()])
}, TIMEOUT)

afterAll(async () => {
  await browser?.close()
  await cli?.stop()
  serverApp?.remove()
  guardApp?.remove()
  if (work) rmSync(work, { recursive: true, force: true })
})

/** A world of its own on the CLI server (as the Playwright fixture makes one per test), with one user in it. */
async function worldWithUser(username: string): Promise<string> {
  const created = await fetch(`${cli.url}/__mock/worlds`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scenario: 'empty' }) })
  const { id } = (await created.json()) as { id: string }
  const user = await fetch(`${cli.url}/admin/api/v1.2/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mock-world': id },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'Passw0rd!' }),
  })
  expect(user.status).toBe(201)
  return id
}

describe('docs/browser.md: Next.js', () => {
  it('shows the fixtures as they are: every block that names a file of test/apps/next* is that file', () => {
    const shown = [...shownInDocs('next'), ...shownInDocs('next-browser')]
    expect(shown.map(({ file }) => file)).toEqual(
      expect.arrayContaining([
        'test/apps/next/next.config.mjs',
        'test/apps/next/instrumentation.js',
        'test/apps/next/app/page.jsx',
        'test/apps/next-browser/app/mock-provider.jsx',
        'test/apps/next-browser/app/layout.jsx',
      ]),
    )
    for (const { where, file, block, text } of shown) expect(block, `${where} shows ${file}`).toBe(text)
  })

  it(
    'the guard in a client component: what next build gives the browser holds none of the simulator',
    async () => {
      await guardApp.run('next', ['build'])
      const shipped = builtFiles(join(guardApp.dir, '.next', 'static'))
      const bytes = shipped.reduce((sum, file) => sum + file.bytes, 0)
      console.log(`[app-next] next build with the guard: ${shipped.length} files, ${bytes} B of JavaScript for the browser`)
      expect(shipped.length).toBeGreaterThan(0)
      expect(shipped.filter((file) => file.markers.length > 0)).toEqual([])
    },
    TIMEOUT,
  )

  it(
    'the guard in a client component: in next dev, msw’s worker answers the page’s first request (Chromium)',
    async () => {
      await guardApp.run('msw', ['init', 'public/', '--save'])
      const url = `http://127.0.0.1:${await freePort()}`
      const env = appEnv({ NODE_OPTIONS: `--import ${join(ROOT, 'test', 'apps', 'no-registry.mjs')}` })
      const dev = await guardApp.serve('next', ['dev', '--hostname', '127.0.0.1', '--port', url.split(':')[2]!], url, env)
      const context = await browser.newContext()
      try {
        const page = await context.newPage()
        const errors: string[] = []
        page.on('pageerror', (error) => errors.push(error.message))
        await page.goto(url)
        await page.waitForFunction(() => (document.querySelector('#username')?.textContent ?? 'loading…') !== 'loading…', null, { timeout: 90_000 })
        const [first] = (await (await fetch(`${cli.url}/admin/api/v1.2/users?limit=1`)).json()) as { username: string }[]
        expect({ shown: await page.textContent('#username'), errors }).toEqual({ shown: first!.username, errors: [] })
        expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${url}/mockServiceWorker.js`)
        // Answered in the browser: the dev server never saw the request.
        expect(dev.output()).not.toContain('/admin/')
      } finally {
        await context.close()
        await dev.stop()
      }
    },
    TIMEOUT,
  )

  describe('with the CLI server: next build, then next start', () => {
    let url: string
    let app: Served | undefined
    const worlds: string[] = []
    beforeAll(async () => {
      const env = appEnv({ MULTI_AREA_MOCK_URL: cli.url, API_URL: cli.url })
      await serverApp.run('next', ['build'], env)
      url = `http://127.0.0.1:${await freePort()}`
      app = await serverApp.serve('next', ['start', '--hostname', '127.0.0.1', '--port', url.split(':')[2]!], url, env)
      worlds.push(await worldWithUser('ada.next'), await worldWithUser('grace.next'))
    }, TIMEOUT)
    afterAll(async () => {
      await app?.stop()
      await Promise.all(worlds.map((id) => fetch(`${cli.url}/__mock/worlds/${id}`, { method: 'DELETE' })))
    })

    const serverUser = async (cookie?: string) => {
      const html = await (await fetch(url, { headers: cookie ? { cookie } : {} })).text()
      return /id="server-user">([^<]*)</.exec(html)?.[1] ?? html.slice(0, 2000)
    }

    it('renders the page on the server from the world the request names: two worlds, two answers; none, the default world', async () => {
      const [ada, grace] = worlds as [string, string]
      const [first] = (await (await fetch(`${cli.url}/admin/api/v1.2/users?limit=1`)).json()) as { username: string }[]
      // At once, as two tests on two workers would.
      expect(await Promise.all([serverUser(`mock-world=${ada}`), serverUser(`theme=dark; mock-world=${grace}`)])).toEqual(['ada.next', 'grace.next'])
      expect(await serverUser()).toBe(first!.username)
      const handler = await fetch(`${url}/api/user`, { headers: { 'x-mock-world': grace } })
      expect(await handler.json()).toEqual({ username: 'grace.next' })
    })

    it('the browser’s requests go through the rewrites to the simulator, in the world of the cookie (Chromium)', async () => {
      const [ada] = worlds as [string]
      const context = await browser.newContext()
      try {
        await context.addCookies([{ name: 'mock-world', value: ada, url }])
        const page = await context.newPage()
        const errors: string[] = []
        page.on('pageerror', (error) => errors.push(error.message))
        await page.goto(url)
        await page.waitForFunction(() => document.querySelector('#client-user')?.textContent !== 'loading…', null, { timeout: 30_000 })
        expect({ server: await page.textContent('#server-user'), browser: await page.textContent('#client-user'), errors }).toEqual({
          server: 'ada.next',
          browser: 'ada.next',
          errors: [],
        })
      } finally {
        await context.close()
      }
    })

    it('keeps the simulator out of the server’s bundle (serverExternalPackages)', () => {
      const server = builtFiles(join(serverApp.dir, '.next', 'server'), /\.js$/)
      expect(server.filter((file) => file.markers.includes('entangled-pairs')).map((file) => file.path)).toEqual([])
    })
  })
})
