import type { BrowserContext, Route } from '@playwright/test'
import { WORLD_COOKIE, WORLD_HEADER } from '../simulator/worlds/worlds.js'
import type { MockWorld } from '../testing/mock-world.js'
import { normalizeServerUrl } from '../testing/mock-server.js'

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * Sends a browser context's requests into a world, in three ways:
 * - requests to the simulator server (under any loopback name when it is on
 *   loopback) go on with the `x-mock-world` header, added by Playwright's
 *   request interception below the page: the page's own CORS check never
 *   sees it, so no preflight is needed for it (Playwright answers the
 *   preflights of intercepted requests itself);
 * - requests to the `origins` the app calls instead (a production API URL,
 *   a proxy) are fetched from the simulator server, same path, and fulfilled;
 * - the `mock-world` cookie is set for the app's own origin (`baseURL`) and the
 *   server's, so navigations and the app's same-origin fetches carry the world
 *   to the app's server (`propagateMockWorld` reads it), and so do the
 *   credentialed requests of a service worker.
 * Context routes rather than page routes: popups and service workers of the
 * context are covered too.
 */
export async function routeIntoWorld(context: BrowserContext, world: MockWorld, options: { baseURL?: string | undefined; origins?: readonly string[] }): Promise<void> {
  const server = new URL(`${world.serverUrl}/`)
  const direct = new Set([server.origin])
  if (LOOPBACK.has(server.hostname)) for (const host of LOOPBACK) direct.add(`${server.protocol}//${host}${server.port ? `:${server.port}` : ''}`)
  const aliases = new Map<string, string>()
  for (const origin of options.origins ?? []) {
    const url = normalizeServerUrl(origin, 'mockOrigins entry')
    if (!direct.has(new URL(url).origin)) aliases.set(new URL(url).origin, url)
  }
  const headersOf = (route: Route) => ({ ...route.request().headers(), [WORLD_HEADER]: world.worldId })
  await context.route(
    (url) => direct.has(url.origin) && (url.pathname === server.pathname.replace(/\/$/, '') || url.pathname.startsWith(server.pathname)),
    (route) => route.fallback({ headers: headersOf(route) }),
  )
  if (aliases.size > 0) {
    await context.route(
      (url) => aliases.has(url.origin),
      async (route) => {
        const from = new URL(route.request().url())
        const base = new URL(aliases.get(from.origin)!)
        const path = from.pathname.startsWith(base.pathname) ? from.pathname.slice(base.pathname.replace(/\/$/, '').length) : from.pathname
        const response = await route.fetch({ url: `${world.serverUrl}${path}${from.search}`, headers: headersOf(route), maxRedirects: 0 })
        await route.fulfill({ response })
      },
    )
  }
  const cookieUrls = new Set([server.origin])
  if (options.baseURL) cookieUrls.add(new URL(options.baseURL).origin)
  await context.addCookies([...cookieUrls].map((url) => ({ name: WORLD_COOKIE, value: world.worldId, url, sameSite: 'Lax' as const })))
}
