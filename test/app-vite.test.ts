/**
 * docs/browser.md's Vite recipes, run in real Vite apps made from
 * test/apps/vite-browser/ and test/apps/vite-proxy/ with the packed package,
 * installed offline (test/apps/app-project.ts); the docs' blocks are these
 * files, checked first.
 *
 * - The development-only guard: `vite build` leaves the simulator out (none of
 *   its strings, under 2 kB of JavaScript), while the same app built with
 *   `import.meta.env.DEV` on has it all.
 * - The browser entry in the dev server, in Chromium: msw's worker (put in
 *   public/ by `msw init`) answers the page.
 * - `server.proxy` to a real CLI server on a free port: the page shows the
 *   user of the world its cookie names, as the Playwright fixture sets it.
 *
 * Needs `npm run build` (npm test does) and Debian's Chromium.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, appEnv, builtFiles, makeApp, ROOT, SIMULATOR_MARKERS, shownInDocs } from './apps/app-project.js'
import { freePort } from './support/free-port.js'
import { pack } from './docs/support/consumers.js'
import { type CliServer, startCli } from './support/cli-server.js'
import { launchChromium } from './support/chromium.js'

/** A production build of the guarded app: the app's own code and Vite's preload helper (0.8 kB when this was written). */
const GUARDED_BUDGET = 2_000
const TIMEOUT = 120_000

let work: string
let browserApp: App
let proxyApp: App
let cli: CliServer
let browser: Browser

beforeAll(async () => {
  work = mkdtempSync(join(ROOT, 'test-output', 'app-vite-'))
  const tarball = pack()
  ;[browserApp, proxyApp, cli, browser] = await Promise.all([makeApp('vite-browser', tarball), makeApp('vite-proxy', tarball), startCli(['--quiet']), launchChromium()])
}, TIMEOUT)

afterAll(async () => {
  await browser?.close()
  await cli?.stop()
  browserApp?.remove()
  proxyApp?.remove()
  if (work) rmSync(work, { recursive: true, force: true })
})

/** Opens `url` and waits until the page shows a username (or fails with what it showed and its errors). */
async function shownUsername(page: Page, url: string): Promise<string> {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(url)
  try {
    await page.waitForFunction(() => document.querySelector('#username')?.textContent !== 'loading…', null, { timeout: 60_000 })
  } catch (error) {
    throw new Error(`${url} showed "${await page.textContent('#username')}"; page errors: ${errors.join('; ') || 'none'}`, { cause: error })
  }
  expect(errors).toEqual([])
  return (await page.textContent('#username'))!
}

async function firstUser(headers: Record<string, string> = {}): Promise<string> {
  const [user] = (await (await fetch(`${cli.url}/admin/api/v1.2/users?limit=1`, { headers })).json()) as { username: string }[]
  return user!.username
}

describe('docs/browser.md: Vite', () => {
  it('shows the fixtures as they are: every block that names a file of test/apps/vite-* is that file', () => {
    const shown = [...shownInDocs('vite-browser'), ...shownInDocs('vite-proxy')]
    expect(shown.map(({ file }) => file).sort()).toEqual(expect.arrayContaining(['test/apps/vite-browser/src/main.js', 'test/apps/vite-proxy/vite.config.js']))
    for (const { where, file, block, text } of shown) expect(block, `${where} shows ${file}`).toBe(text)
  })

  it(
    'the guard: a production build holds none of the simulator, a build with import.meta.env.DEV on holds all of it',
    async () => {
      await browserApp.run('vite', ['build'])
      const guarded = builtFiles(join(browserApp.dir, 'dist'))
      const guardedBytes = guarded.filter((file) => file.path.endsWith('.js')).reduce((sum, file) => sum + file.bytes, 0)
      // The control: the same app with DEV on (as in the dev server), so the markers are what the simulator brings.
      await browserApp.run('vite', ['build', '--outDir', 'dist-dev'], appEnv({ NODE_ENV: 'development' }))
      const unguarded = builtFiles(join(browserApp.dir, 'dist-dev'))
      const unguardedBytes = unguarded.reduce((sum, file) => sum + file.bytes, 0)
      console.log(
        `[app-vite] production build: ${guardedBytes} B of JavaScript; with DEV on: ${unguardedBytes} B (${unguarded.map((file) => `${file.path} ${file.bytes}`).join(', ')})`,
      )

      expect(guarded.filter((file) => file.markers.length > 0)).toEqual([])
      expect(guardedBytes).toBeLessThan(GUARDED_BUDGET)
      expect(new Set(unguarded.flatMap((file) => file.markers))).toEqual(new Set(SIMULATOR_MARKERS))
      expect(unguardedBytes).toBeGreaterThan(500_000)
    },
    TIMEOUT,
  )

  it(
    'the browser entry: in the dev server, msw’s worker answers the page’s request, as the CLI server with the same seed would',
    async () => {
      await browserApp.run('msw', ['init', 'public/', '--save'])
      const url = `http://127.0.0.1:${await freePort()}`
      const dev = await browserApp.serve('vite', ['--host', '127.0.0.1', '--port', url.split(':')[2]!, '--strictPort'], url)
      const context = await browser.newContext()
      try {
        const page = await context.newPage()
        expect(await shownUsername(page, url)).toBe(await firstUser())
        expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${url}/mockServiceWorker.js`)
      } finally {
        await context.close()
        await dev.stop()
      }
    },
    TIMEOUT,
  )

  it(
    'server.proxy: the dev server passes the page’s requests to the CLI server, in the world its cookie names',
    async () => {
      const created = await fetch(`${cli.url}/__mock/worlds`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scenario: 'empty' }) })
      const { id } = (await created.json()) as { id: string }
      const user = await fetch(`${cli.url}/admin/api/v1.2/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-mock-world': id },
        body: JSON.stringify({ username: 'ada.vite', email: 'ada@example.com', password: 'Passw0rd!' }),
      })
      expect(user.status).toBe(201)
      const url = `http://127.0.0.1:${await freePort()}`
      const dev = await proxyApp.serve('vite', ['--host', '127.0.0.1', '--port', url.split(':')[2]!, '--strictPort'], url, appEnv({ MULTI_AREA_MOCK_URL: cli.url }))
      const [inWorld, plain] = [await browser.newContext(), await browser.newContext()]
      try {
        await inWorld.addCookies([{ name: 'mock-world', value: id, url }])
        expect(await shownUsername(await inWorld.newPage(), url)).toBe('ada.vite')
        expect(await shownUsername(await plain.newPage(), url)).toBe(await firstUser())
      } finally {
        await Promise.all([inWorld.close(), plain.close()])
        await dev.stop()
        await fetch(`${cli.url}/__mock/worlds/${id}`, { method: 'DELETE' })
      }
    },
    TIMEOUT,
  )
})
