/** What a route spec is matched against: the request path and, when a route matched, its pattern. */
export interface RouteTarget {
  /** The request's path, e.g. `/admin/api/v1.2/users/0194…`. */
  pathname: string
  /** The mount's path prefix, e.g. `/admin` (`''` at the root). */
  prefix: string
  /** The matched route's pattern relative to the mount, e.g. `/api/v1.2/users/{userId}`; `null` when none matched. */
  pattern: string | null
}

/** `true` when a request matches a compiled route spec. */
export type RouteMatcher = (target: RouteTarget) => boolean

/**
 * Compiles a route spec as fault rules and journal filters take it. Three forms:
 * a route pattern (`/api/v1.2/users/{userId}` or with the area prefix,
 * `/admin/api/v1.2/users/{id}`; parameter names do not matter), a path glob
 * (`/core/products/*`; `*` is one path segment, `**` any number), or an exact
 * path (`/core/users`). Paths may be given with or without the area prefix.
 *
 * @example
 * const matches = compileRouteMatcher('/api/v1.2/users/{id}')
 * matches({ pathname: '/admin/api/v1.2/users/42', prefix: '/admin', pattern: '/api/v1.2/users/{userId}' }) // true
 */
export function compileRouteMatcher(spec: string): RouteMatcher {
  if (spec.includes('{')) {
    const wanted = anonymous(spec)
    return ({ prefix, pattern }) => pattern !== null && (anonymous(pattern) === wanted || anonymous(prefix + pattern) === wanted)
  }
  if (spec.includes('*')) {
    const source = spec
      .split(/(\*\*|\*)/)
      .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
      .join('')
    const glob = new RegExp(`^${source}$`)
    return ({ pathname, prefix }) => glob.test(pathname) || (prefix !== '' && glob.test(pathname.slice(prefix.length)))
  }
  return ({ pathname, prefix }) => pathname === spec || (prefix !== '' && pathname.slice(prefix.length) === spec && pathname.startsWith(prefix))
}

/** `/users/{userId}` and `/users/{id}` are the same route. */
function anonymous(pattern: string): string {
  return pattern.replace(/\{[^}]*\}/g, '{}')
}
