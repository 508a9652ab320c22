import type { RouteDefinition, RouteExample } from '../routing/route.js'

/** A route example with the answer a freshly seeded simulator gave to it. */
export interface RecordedExample {
  name: string
  summary?: string
  request: RouteExample
  status: number
  /** The JSON body of the answer; `undefined` when it had none. */
  body: unknown
  /**
   * Sent by the document itself to show an error that follows from the
   * route's shape (a body that is not JSON, an unknown world, an injected
   * fault...): shown only where the route has no example of that status.
   */
  shape?: boolean
}

/** Recorded examples per route, keyed by `exampleKey`. */
export type ExampleSet = ReadonlyMap<string, readonly RecordedExample[]>

/**
 * The key of a route's examples: the area and the route's own method and path,
 * so examples recorded on one simulator apply to another one's routes.
 *
 * @example
 * exampleKey('admin', { method: 'GET', path: '/api/v1.2/users' }) // 'admin GET /api/v1.2/users'
 */
export function exampleKey(area: string, route: Pick<RouteDefinition, 'method' | 'path'>): string {
  return `${area} ${route.method} ${route.path}`
}
