import { errorResponse } from '../errors/error-response.js'
import { invalidPathError } from '../errors/invalid-path-error.js'
import type { RouteDefinition, RouteError } from '../routing/route.js'
import type { RecordedExample } from './examples.js'

/**
 * The HTTP server refuses a path with a backslash or a `.`/`..` segment before
 * any route (`src/node/gate/request-gate.ts`), so every operation with a path
 * parameter can answer 400 `invalid_path`: the parameter holding `%5C` or
 * being `%2E`. One constant, so every operation's 400 that holds nothing else
 * of its own is still shared.
 */
export const INVALID_PATH = {
  code: 'invalid_path',
  description:
    'A path parameter holds a backslash (`%5C`) or is `.` or `..` (`%2E`, `%2E%2E`): the HTTP server refuses such a path before any route, whatever the parameter may otherwise hold.',
} as const satisfies Exclude<RouteError, string>

/**
 * Whether the route's path has a parameter (`/users/{userId}`).
 *
 * @example
 * hasPathParameter({ path: '/products/{id}' }) // true
 */
export function hasPathParameter(route: Pick<RouteDefinition, 'path'>): boolean {
  return /\{[^}]+\}/.test(route.path)
}

/**
 * The HTTP server's answer to a path parameter holding a backslash, as the
 * example of a 400 `invalid_path`: in-process there is no such answer to record.
 *
 * @example
 * invalidPathExample().body // { error: 'invalid_path', message: 'The request path has "." or ".." segments or backslashes; …' }
 */
export function invalidPathExample(): RecordedExample {
  const reply = errorResponse(invalidPathError())
  return { name: 'invalidPath', summary: 'A path parameter holding a backslash (`%5C`)', request: {}, status: reply.status, body: JSON.parse(reply.body!), shape: true }
}
