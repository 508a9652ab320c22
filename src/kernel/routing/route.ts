import type { z } from 'zod'
import type { ErrorCode } from '../errors/error-codes.js'
import type { Reply } from '../http/reply.js'
import type { ResponseHeader } from '../http/response-headers.js'
import type { SimRequest } from '../http/sim-request.js'

/** HTTP methods the simulator routes. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * What a route's `handle` receives: the request and its parts as the route
 * declared them, already validated (D11): `params`, `query` and `body` are
 * the schemas' output, so a handler never parses them again.
 */
export interface RouteInput<Params = Record<string, string>, Query = Record<string, never>, Body = undefined> {
  /** The request as every way in adapts it (msw, `sim.fetch`, the CLI fast path). */
  request: SimRequest
  url: URL
  /** Path parameters: decoded, then validated with `params` when declared (`{userId}` in the pattern is `params.userId`). */
  params: Params
  /** The query validated with `query` (first value of each key); `{}` when none is declared. */
  query: Query
  /** The JSON body validated with `body`; what a raw body read (`rawJsonBody`); `undefined` without one. */
  body: Body
}

/** The request body a route declares: a JSON body read with the D11 checks, then validated unless `raw`. */
export interface BodySpec<S extends z.ZodType = z.ZodType> {
  readonly kind: 'json' | 'raw'
  /** What the body must be: it validates the body (unless `raw`) and documents it (OpenAPI). */
  readonly schema: S
  /** Largest accepted body in bytes; default: the simulator's `limits.bodyBytes` (D11). */
  readonly limit?: number
  /** Parser of the body text (Area E's lossless amounts); default `JSON.parse`. */
  readonly parse?: (text: string) => unknown
}

/**
 * A JSON body validated with `schema` before `handle` runs; `limit` and
 * `parse` when the route needs its own (the control API's larger documents,
 * Area E's amounts that must keep every digit).
 *
 * @example
 * body: jsonBody(delegateBody, { parse: parseLosslessJson })
 */
export function jsonBody<S extends z.ZodType>(schema: S, options: { limit?: number; parse?: (text: string) => unknown } = {}): BodySpec<S> & { kind: 'json' } {
  return { kind: 'json', schema, ...options }
}

/**
 * A JSON body read with the D11 checks (size, media type, syntax, not empty)
 * but validated by the handler itself, which gets it as parsed: for bodies
 * checked as a whole in their own way (Area B's batches, the state document).
 * `schema` documents it.
 *
 * @example
 * body: rawJsonBody(ingestionBatch(limit)), handle: ({ body }) => json(validateBatch(body, limit))
 */
export function rawJsonBody<S extends z.ZodType>(schema: S, options: { limit?: number } = {}): BodySpec<S> & { kind: 'raw' } {
  return { kind: 'raw', schema, ...options }
}

/**
 * A route's body declaration as a `BodySpec` (a plain schema is a validated JSON body).
 *
 * @example
 * bodySpec(route.body).schema // what the OpenAPI document shows
 */
export function bodySpec(body: z.ZodType | BodySpec): BodySpec {
  return 'kind' in body && 'schema' in body && (body.kind === 'json' || body.kind === 'raw') ? (body as BodySpec) : { kind: 'json', schema: body as z.ZodType }
}

/** Who may call a route (D7, D8): checked before anything else of the request, and documented (401 `WWW-Authenticate`). */
export interface RouteSecurity {
  scheme: 'bearer'
  /** Throws the 401 (`ApiError`) when the request may not call the route. */
  verify(request: SimRequest): unknown
}

/** What `params`, `query` and `body` give `handle`, from what the route declares. */
type Output<S, Otherwise> = S extends z.ZodType ? z.output<S> : Otherwise
type BodyOutput<B> = B extends BodySpec<infer S> ? (B extends { kind: 'raw' } ? unknown : z.output<S>) : Output<B, undefined>

/** A success response of a route, as documented: its JSON body and the headers that matter. */
export interface RouteResponse {
  /** A few words on the response; default: the status text. */
  description?: string
  /** The zod schema of what the handler returns; omit for a response without a body (204). */
  body?: z.ZodType
  /** The body's media type when it is not JSON, e.g. `text/event-stream`; `body` then describes its text. */
  contentType?: string
  headers?: readonly ResponseHeader[]
}

/** A route's success responses by status, as `responses` declares them. */
export type RouteResponses = Readonly<Record<number, RouteResponse>>

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
 * What it declares is checked before `handle` runs, in this order: `security`,
 * `params`, `query`, `guard`, `body` (see `runRoute`). A route counts as
 * documented (OpenAPI) once it has `operationId` and `responses`; statuses
 * that follow from the route's shape are added for it: 400 for
 * `params`/`query`/`body`, 413 and 415 for `body`, 401 for `security`, 500
 * always, 503 on area routes. Write it with `defineRoute`, which types
 * `handle`'s input from the schemas.
 */
// biome-ignore lint/suspicious/noExplicitAny: a route of any declared inputs: the handler parameter is contravariant
export interface RouteDefinition<Params = any, Query = any, Body = any> {
  method: HttpMethod
  path: string
  summary: string
  /** Answers the request, its declared parts already validated. */
  handle(input: RouteInput<Params, Query, Body>): Reply | Promise<Reply>
  /**
   * Checks that answer before the body is read (an unknown id: 404, the
   * platform under maintenance: 503), so they win over a bad body as a
   * client would expect; `params` and `query` are validated already.
   */
  guard?(input: Omit<RouteInput<Params, Query>, 'body'>): void | Promise<void>
  /** Unique within the area; the document prefixes the area id (`adminGetUser`). */
  operationId?: string
  /** Longer Markdown text for the reference page. */
  description?: string
  /** Path parameters, validated before `handle` (errors at their names); undeclared ones are documented as strings. */
  params?: z.ZodObject
  /** The query, validated before `handle` (errors at `query.<name>`). */
  query?: z.ZodObject
  /** The JSON body: a schema (validated before `handle`), or `jsonBody(...)`/`rawJsonBody(...)` for a limit, a parser or a body the handler checks itself. */
  body?: z.ZodType | BodySpec
  /** Success responses by status. */
  responses?: RouteResponses
  /** Error codes the handler itself throws (D9). */
  errors?: readonly RouteError[]
  /** Needs `Authorization: Bearer <token>` (D7, D8): verified first, documented with its 401s. */
  security?: RouteSecurity
  /**
   * `false` for a write that changes no world (emptying the request journal):
   * answered where it arrives, never a command of the world's log. Every other
   * method but GET is a command (issue 33).
   */
  command?: false
  /** Requests whose real answers become the document's examples (may be async, e.g. to log in). */
  examples?(): RouteExample[] | Promise<RouteExample[]>
}

/**
 * A route as `defineRoute` returns it: a `RouteDefinition` whose type still
 * holds what the route declares (its operation id, the zod schemas of
 * `params`, `query` and `body`, and `responses`), `undefined` for a part it
 * does not declare. A route factory's inferred return type is then a table of
 * these, from which `OperationsOf` derives each operation's request and
 * response types (as hono's `hc` client reads its route table's `Schema`), so
 * no second list of schemas is kept beside the routes.
 *
 * @example
 * type Ops = OperationsOf<ReturnType<typeof adminRoutes>> // adminRoutes returns TypedRoute<'listUsers', …> | …
 */
export interface TypedRoute<
  Id extends string | undefined = string | undefined,
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  B extends z.ZodType | BodySpec | undefined = z.ZodType | BodySpec | undefined,
  R extends RouteResponses | undefined = RouteResponses | undefined,
> extends RouteDefinition {
  operationId: Id
  params: P
  query: Q
  body: B
  responses: R
}

/**
 * Types a route from what it declares, so `handle` gets `params`, `query` and
 * `body` as the schemas' output (an identity function, as h3's `defineRoute`).
 * Its return type keeps the declared operation id and schemas (`TypedRoute`),
 * for the operation types; at run time it is the route as written.
 *
 * @example
 * defineRoute({
 *   method: 'PUT', path: '/api/v1.2/users/{userId}', operationId: 'updateUser', summary: 'Update a user',
 *   params: userParams, body: updateUserBody, responses: { 200: { body: userDetail } }, errors: ['not_found'],
 *   guard: ({ params }) => void requireUser(params.userId),
 *   handle: async ({ params, body }) => json(toDetail(await accounts.update(params.userId, body))),
 * })
 */
export function defineRoute<
  Id extends string | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | BodySpec | undefined = undefined,
  R extends RouteResponses | undefined = undefined,
>(
  route: Omit<RouteDefinition<Output<P, Record<string, string>>, Output<Q, Record<string, never>>, BodyOutput<B>>, 'operationId' | 'params' | 'query' | 'body' | 'responses'> & {
    operationId?: Id
    params?: P
    query?: Q
    body?: B
    responses?: R
  },
): TypedRoute<Id, P, Q, B, R> {
  return route as TypedRoute<Id, P, Q, B, R>
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
