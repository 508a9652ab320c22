import { addRoute, createRouter, findRoute, type RouterContext } from 'rou3'
import { ApiError } from '../errors/api-error.js'
import { ConfigError } from '../errors/config-error.js'
import { closestRoute, type KnownRoute } from './closest-route.js'
import type { Mount, RouteDefinition } from './route.js'

/**
 * The outcome of dispatching one request. `mount` says which area answers (for
 * the request journal and fault rules); an error has none when it comes from
 * outside every area (e.g. an unknown world).
 */
export type Dispatch = { kind: 'route'; route: RouteDefinition; params: Record<string, string>; url: URL; mount: Mount } | { kind: 'error'; error: ApiError; mount?: Mount }

interface CompiledMount {
  mount: Mount
  router: RouterContext<RouteDefinition>
  /** pattern → allowed methods, for 405 answers. */
  paths: RouterContext<string[]>
  /** This mount's routes with full paths, for 404 suggestions. */
  known: KnownRoute[]
  /** `METHOD path` → its route and decoded params, for paths seen before (see `MATCHES_KEPT`). */
  matches: Map<string, Matched>
}

/** A route found for a path, kept for the next request to the same path (params frozen: shared). */
interface Matched {
  route: RouteDefinition
  params: Readonly<Record<string, string>>
}

/**
 * Paths remembered per mount; past this the memory starts again. A client reads
 * the same few URLs again and again (a list, a record it shows), and the match
 * (path split, tree walk, params decoded) is then a single map lookup; the
 * route table never changes after start-up, so a kept match is never stale.
 */
const MATCHES_KEPT = 1024

/**
 * The compiled route table of a simulator: built once, then every request
 * reaches its route in O(path segments) work, whatever the number of routes or
 * areas. Prefix mounts are indexed by their first path segment; root mounts
 * (D2) share one router, and two root routes with the same method and path are
 * refused here at start-up.
 *
 * @example
 * const dispatcher = new Dispatcher([{ area: 'admin', origin: null, prefix: '/admin', routes }])
 * dispatcher.dispatch(new Request('http://x/admin/api/v1.2/users'))
 */
export class Dispatcher {
  readonly #byFirstSegment = new Map<string, CompiledMount[]>()
  readonly #root: RouterContext<{ route: RouteDefinition; mount: Mount }> = createRouter()
  readonly #rootOwners = new Map<string, string>()
  #hasRoot = false
  /** Every route with its full path, for "did you mean" suggestions (D27). */
  readonly knownRoutes: KnownRoute[] = []
  readonly mounts: readonly Mount[]

  /** Extra fields of every 404 (D27), e.g. the mounted areas and their base URLs. */
  readonly #notFoundExtra: Record<string, unknown>

  constructor(mounts: readonly Mount[], notFoundExtra: Record<string, unknown> = {}) {
    this.mounts = mounts
    this.#notFoundExtra = notFoundExtra
    for (const mount of mounts) {
      if (mount.prefix === '') this.#addRoot(mount)
      else this.#addPrefixed(mount)
      for (const route of mount.routes) {
        this.knownRoutes.push({ method: route.method, path: `${mount.origin ?? ''}${mount.prefix}${route.path}` })
      }
    }
  }

  /**
   * Finds the route for `request`. `undefined` means no mounted area claims the
   * URL (the request is not the simulator's); an `error` is a 404 or 405 inside
   * a mounted area's prefix.
   */
  dispatch(request: { readonly method: string; readonly url: string }): Dispatch | undefined {
    const url = new URL(request.url)
    const pathname = url.pathname
    const end = pathname.indexOf('/', 1)
    const first = end === -1 ? pathname : pathname.slice(0, end)
    const candidates = this.#byFirstSegment.get(first)
    if (candidates) {
      for (const compiled of candidates) {
        const { origin, prefix } = compiled.mount
        if (origin !== null && origin !== url.origin) continue
        if (pathname.length > prefix.length && pathname[prefix.length] !== '/') continue
        if (!pathname.startsWith(prefix)) continue
        return this.#inMount(compiled, request.method, pathname.slice(prefix.length) || '/', url)
      }
    }
    if (this.#hasRoot && !trailingSlash(pathname)) {
      const match = findRoute(this.#root, request.method, pathname)
      if (match && (match.data.mount.origin === null || match.data.mount.origin === url.origin)) {
        return { kind: 'route', route: match.data.route, params: decodeParams(match.params), url, mount: match.data.mount }
      }
    }
    return undefined
  }

  /**
   * The 404 for a URL no area claims (D27): the closest route over all areas,
   * plus the extra fields given at construction (the mounted areas).
   */
  notFound(method: string, pathname: string): ApiError {
    return this.#notFound(method, pathname, closestRoute(method, pathname, this.knownRoutes))
  }

  #notFound(method: string, pathname: string, suggestion: KnownRoute | undefined, area?: string): ApiError {
    const where = area ? ` in area "${area}"` : ''
    const hint = suggestion ? ` Did you mean ${suggestion.method} ${suggestion.path}?` : ''
    return new ApiError(404, 'not_found', `No route ${method} ${pathname}${where}.${hint}`, {
      extra: { ...this.#notFoundExtra, ...(suggestion ? { suggestion: `${suggestion.method} ${suggestion.path}` } : {}) },
    })
  }

  #inMount(compiled: CompiledMount, method: string, path: string, url: URL): Dispatch {
    // HEAD is answered like GET; the server drops the body. A trailing slash is
    // another URL (rou3 would ignore it): 404, suggesting the route without it.
    const mount = compiled.mount
    const key = `${method} ${path}`
    const seen = compiled.matches.get(key)
    if (seen) return { kind: 'route', route: seen.route, params: seen.params, url, mount }
    const strict = !trailingSlash(path)
    const match = strict ? findRoute(compiled.router, method === 'HEAD' ? 'GET' : method, path) : undefined
    if (match) {
      const found: Matched = { route: match.data, params: Object.freeze(decodeParams(match.params)) }
      if (compiled.matches.size >= MATCHES_KEPT) compiled.matches.clear()
      compiled.matches.set(key, found)
      return { kind: 'route', route: found.route, params: found.params, url, mount }
    }
    const allowed = strict ? findRoute(compiled.paths, undefined, path) : undefined
    if (allowed) {
      return {
        kind: 'error',
        mount,
        error: new ApiError(405, 'method_not_allowed', `${method} is not supported on ${url.pathname}; use ${allowed.data.join(', ')}.`, {
          extra: { allowed: allowed.data },
          headers: { allow: allowed.data.join(', ') },
        }),
      }
    }
    const suggestion = closestRoute(method, `${mount.prefix}${path}`, compiled.known)
    return { kind: 'error', error: this.#notFound(method, url.pathname, suggestion, mount.area), mount }
  }

  #addPrefixed(mount: Mount): void {
    const router = createRouter<RouteDefinition>()
    const paths = createRouter<string[]>()
    const methodsByPattern = new Map<string, string[]>()
    for (const route of mount.routes) {
      const pattern = toRou3(route.path)
      addRoute(router, route.method, pattern, route)
      const methods = methodsByPattern.get(pattern) ?? []
      if (methods.length === 0) {
        methodsByPattern.set(pattern, methods)
        addRoute(paths, undefined, pattern, methods)
      }
      methods.push(route.method)
    }
    const first = `/${mount.prefix.split('/')[1]}`
    const list = this.#byFirstSegment.get(first) ?? []
    // Longer prefixes first, so `/api/ledger` wins over `/api`.
    const known = mount.routes.map((route) => ({ method: route.method, path: `${mount.prefix}${route.path}` }))
    list.push({ mount, router, paths, known, matches: new Map() })
    list.sort((a, b) => b.mount.prefix.length - a.mount.prefix.length)
    this.#byFirstSegment.set(first, list)
  }

  #addRoot(mount: Mount): void {
    for (const route of mount.routes) {
      const key = `${route.method} ${route.path.replace(/\{[^}]+\}/g, '{}')}`
      const owner = this.#rootOwners.get(key)
      if (owner !== undefined) {
        throw new ConfigError(
          `Route clash at the root: ${route.method} ${route.path} is defined by both area "${owner}" and area "${mount.area}"; mount only one of them at "/" (D2).`,
        )
      }
      this.#rootOwners.set(key, mount.area)
      addRoute(this.#root, route.method, toRou3(route.path), { route, mount })
    }
    this.#hasRoot = true
  }
}

function trailingSlash(path: string): boolean {
  return path.length > 1 && path.endsWith('/')
}

function toRou3(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1')
}

function decodeParams(params: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (!params) return out
  for (const key of Object.keys(params)) {
    const value = params[key]!
    try {
      out[key] = decodeURIComponent(value)
    } catch {
      out[key] = value
    }
  }
  return out
}
