import type * as z from 'zod'
import type { BodySpec, TypedRoute } from '../routing/route.js'

/**
 * The schemas of one operation, as its route validates and documents them:
 * path parameters, query, JSON body and the body of its success answer
 * (`undefined` for a 204). `OperationsOf` reads one per operation from a
 * route table; the exported request and response types are inferred from it.
 */
export interface OperationSchemas {
  params?: z.ZodType
  query?: z.ZodType
  body?: z.ZodType
  response: z.ZodType | undefined
}

/**
 * The operations of a route table, keyed by operation id: for each route
 * `defineRoute` typed, the schemas it declares (`OperationSchemas`). A route
 * factory's inferred return type is such a table, so the routes are the only
 * list of an operation's schemas.
 *
 * @example
 * type Ops = OperationsOf<ReturnType<typeof adminRoutes>>
 * type Body = RequestOf<Ops['createUser']>['body'] // { username: string; email: string; password: string }
 */
export type OperationsOf<Routes extends readonly TypedRoute[]> = {
  // Keyed by each route's literal id; a route without one is no operation.
  [Route in Routes[number] as Route['operationId'] & string]: {
    params: Route['params']
    query: Route['query']
    body: BodySchema<Route['body']>
    response: SuccessBody<Route['responses']>
  }
}

/** The schema a body declaration documents: `jsonBody(schema)` and `rawJsonBody(schema)` both carry it. */
type BodySchema<B> = B extends BodySpec<infer S> ? S : B

/** The body schema of a route's success response; `undefined` when it has none (204). Routes declare one success status. */
type SuccessBody<R> = R extends object ? { [Status in keyof R]: R[Status] extends { body: infer S extends z.ZodType } ? S : undefined }[keyof R] : undefined

/**
 * What a client sends to an operation: `params` (path), `query` (as text, as
 * in a URL) and `body` (JSON), each only when the operation takes it.
 *
 * @example
 * type Body = RequestOf<AdminOperations['createUser']>['body'] // { username: string; email: string; password: string }
 */
export type RequestOf<O extends OperationSchemas> = {
  [K in 'params' | 'query' | 'body' as O[K] extends z.ZodType ? K : never]: O[K] extends z.ZodType ? z.input<O[K]> : never
}

/**
 * The JSON body of an operation's success answer; `undefined` for 204.
 *
 * @example
 * type User = ResponseOf<AdminOperations['getUser']> // { id: string; username: string; … }
 */
export type ResponseOf<O extends OperationSchemas> = O['response'] extends z.ZodType ? z.output<O['response']> : undefined
