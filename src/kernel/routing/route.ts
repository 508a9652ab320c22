import type { z } from 'zod'
import type { ErrorCode } from '../errors/error-codes.js'
import type { Reply } from '../http/reply.js'
import type { ResponseHeader } from '../http/response-headers.js'
import type { SimRequest } from '../http/sim-request.js'

/** HTTP methods the simulator routes. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** What a route's handler receives. */
export interface RouteContext {
  /** The request as every way in adapts it (msw, `sim.fetch`, the CLI fast path). */
  request: SimRequest
  url: URL
  /** Path parameters, decoded: `{userId}` in the pattern is `params.userId`. */
  params: Record<string, string>
}

/** A success response of a route, as documented: its JSON body and the headers that matter. */
export interface RouteResponse {
  /** A few words on the response; default: the status text. */
  description?: string
  /** The zod schema of what the handler returns; omit for a response without a body (204). */
  body?: z.ZodType
  headers?: readonly ResponseHeader[]
}

/**
 * An error a route can answer (D9): a code, or a code with the extra fields its
 * body carries (e.g. Area C's 404 `particle_id`) and a route-specific description.
 */
export type RouteError = ErrorCode | { code: ErrorCode; extra?: z.ZodObject; description?: string }

/**
 * A request shown in the document. It is sent to a simulator freshly seeded with
 * the default scenario, seed 1 and a fixed clock; its answer becomes the response
 * example, so examples are real and never drift.
 */
export interface RouteExample {
  /** Key of the example in the document; default `example`, then `example2`... */
  name?: string
  summary?: string
  params?: Record<string, string | undefined>
  query?: Record<string, string | undefined>
  body?: unknown
  headers?: Record<string, string>
}

/**
 * One endpoint of an area, with its documentation next to its handler. `path`
 * uses the spec's `{param}` notation and is relative to the area's base URL.
 * A route counts as documented (OpenAPI) once it has `operationId` and
 * `responses`; statuses that follow from the route's shape are added for it:
 * 400 for `params`/`query`/`body`, 413 and 415 for `body`, 401 for `security`,
 * 500 always, 503 on area routes.
 *
 * @example
 * const route: RouteDefinition = {
 *   method: 'GET', path: '/api/v1.2/users/{userId}', operationId: 'getUser', summary: 'Read a user',
 *   params: userParams, responses: { 200: { body: userDetail } }, errors: ['not_found'],
 *   examples: () => [{ params: { userId: accounts.sorted()[0]!.id } }],
 *   handle: ({ params }) => json(readUser(params.userId)),
 * }
 */
export interface RouteDefinition {
  method: HttpMethod
  path: string
  summary: string
  handle(context: RouteContext): Reply | Promise<Reply>
  /** Unique within the area; the document prefixes the area id (`adminGetUser`). */
  operationId?: string
  /** Longer Markdown text for the reference page. */
  description?: string
  /** Path parameters; undeclared ones are documented as strings. */
  params?: z.ZodObject
  /** The query schema the handler parses with (`parseQuery(schema, url)`). */
  query?: z.ZodObject
  /** The JSON body schema the handler parses with (`parseBody(request, schema, ...)`). */
  body?: z.ZodType
  /** Success responses by status. */
  responses?: Readonly<Record<number, RouteResponse>>
  /** Error codes the handler itself throws (D9). */
  errors?: readonly RouteError[]
  /** `bearer`: needs `Authorization: Bearer <token>` (D7, D8). */
  security?: 'bearer'
  /** Requests whose real answers become the document's examples (may be async, e.g. to log in). */
  examples?(): RouteExample[] | Promise<RouteExample[]>
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
