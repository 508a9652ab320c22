import type { AreaId } from '../../areas/registry.js'
import { ConfigError } from '../../kernel/errors/config-error.js'

/** Default `proxyTimeout`: how long an upstream may stay silent before the answer is 504. */
export const DEFAULT_PROXY_TIMEOUT = 30_000

/** One proxied area: where its requests go. */
export interface ProxyTarget {
  area: AreaId
  /** The base URL as given, without a trailing slash: `https://users.example.com/api`. */
  base: URL
}

/**
 * The `proxy` option checked: each area known and mounted, each URL an
 * absolute http(s) URL without query or fragment. A bad one is a `ConfigError`
 * naming it, before the server listens.
 *
 * @example
 * proxyTargets({ admin: 'https://users.example.com/api' }, ['admin', 'core']) // [{ area: 'admin', base: URL }]
 */
export function proxyTargets(proxy: Partial<Record<AreaId, string | undefined>>, mounted: readonly AreaId[]): ProxyTarget[] {
  const targets: ProxyTarget[] = []
  for (const [area, text] of Object.entries(proxy) as Array<[AreaId, string | undefined]>) {
    if (text === undefined) continue
    if (!mounted.includes(area)) throw new ConfigError(`Cannot proxy area "${area}": it is not mounted (mounted: ${mounted.join(', ')}).`)
    let base: URL
    try {
      base = new URL(text)
    } catch {
      throw new ConfigError(`Invalid proxy URL for area "${area}": "${text}" is not an absolute URL such as https://users.example.com/api.`)
    }
    if (!/^https?:$/.test(base.protocol) || base.search || base.hash || base.username || base.password) {
      throw new ConfigError(`Invalid proxy URL for area "${area}": expected an http(s) URL without query, fragment or credentials, such as https://users.example.com/api.`)
    }
    base.pathname = base.pathname.replace(/\/+$/, '')
    targets.push({ area, base })
  }
  return targets
}

/**
 * The upstream URL of a request: the path under the area's prefix appended to
 * the base URL's path, the query kept as sent.
 *
 * @example
 * upstreamUrl(new URL('https://users.example.com/api'), '/api/v1.2/users', '?limit=5') // https://users.example.com/api/api/v1.2/users?limit=5
 */
export function upstreamUrl(base: URL, rest: string, search: string): URL {
  const url = new URL(base.href)
  // A base without a path (`http://127.0.0.1:8081`) has the path "/": joined as it is, that would send "//api/...".
  url.pathname = `${base.pathname.replace(/\/+$/, '')}${rest}`
  url.search = search
  return url
}
