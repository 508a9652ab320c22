/** HTTP methods the simulator routes. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** What a route's handler receives. */
export interface RouteContext {
  request: Request
  url: URL
  /** Path parameters, decoded: `{userId}` in the pattern is `params.userId`. */
  params: Record<string, string>
}

/**
 * One endpoint of an area. `path` uses the spec's `{param}` notation and is
 * relative to the area's base URL.
 *
 * @example
 * const route: RouteDefinition = {
 *   method: 'GET', path: '/api/v1.2/users/{userId}', summary: 'Read a user',
 *   handle: ({ params }) => json(readUser(params.userId)),
 * }
 */
export interface RouteDefinition {
  method: HttpMethod
  path: string
  summary: string
  handle(context: RouteContext): Response | Promise<Response>
}

/** An area as the dispatcher sees it: a name, where it is mounted, its routes. */
export interface Mount {
  /** Area id, e.g. `admin`, or `control` for `/__mock`. */
  area: string
  /** `null` matches any origin (a path-prefix base URL, D3). */
  origin: string | null
  /** Path prefix without trailing slash; `''` for a root mount (D2). */
  prefix: string
  routes: readonly RouteDefinition[]
}
