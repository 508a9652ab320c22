import { distance } from 'fastest-levenshtein'

/** A route as shown to a user: `GET /admin/api/v1.2/users/{userId}`. */
export interface KnownRoute {
  method: string
  path: string
}

/**
 * The known route closest to what was requested (D27), by edit distance after
 * filling the route's `{params}` with the requested path's segments, so
 * `/users/123/x` is compared with `/users/123` rather than `/users/{userId}`.
 *
 * @example
 * closestRoute('GET', '/admin/api/v1.2/user', routes) // { method: 'GET', path: '/admin/api/v1.2/users' }
 */
export function closestRoute(method: string, path: string, routes: readonly KnownRoute[]): KnownRoute | undefined {
  const segments = path.split('/')
  const first = segments[1] ?? ''
  let best: KnownRoute | undefined
  let bestScore = Infinity
  for (const route of routes) {
    const filled = route.path
      .split('/')
      .map((segment, index) => (segment.startsWith('{') ? (segments[index] ?? segment) : segment))
      .join('/')
    // The first segment (the area's prefix) weighs most, so `/admin-typo/x` points
    // into Area A; a different method costs a little, so the right path wins anyway.
    const score = 3 * distance(route.path.split('/')[1] ?? '', first) + distance(filled, path) + (route.method === method ? 0 : 2)
    if (score < bestScore) {
      bestScore = score
      best = route
    }
  }
  return best
}
