import type * as z from 'zod'

/**
 * The schemas of one operation, as its route validates and documents them:
 * path parameters, query, JSON body and the body of its success answer
 * (`undefined` for a 204). An area's `…Operations` map holds one per
 * operation; the exported request and response types are inferred from it.
 */
export interface OperationSchemas {
  params?: z.ZodType
  query?: z.ZodType
  body?: z.ZodType
  response: z.ZodType | undefined
}

/**
 * What a client sends to an operation: `params` (path), `query` (as text, as
 * in a URL) and `body` (JSON), each only when the operation takes it.
 *
 * @example
 * type Body = RequestOf<typeof adminOperations.createUser>['body'] // { username: string; email: string; password: string }
 */
export type RequestOf<O extends OperationSchemas> = {
  [K in 'params' | 'query' | 'body' as O[K] extends z.ZodType ? K : never]: O[K] extends z.ZodType ? z.input<O[K]> : never
}

/**
 * The JSON body of an operation's success answer; `undefined` for 204.
 *
 * @example
 * type User = ResponseOf<typeof adminOperations.getUser> // { id: string; username: string; … }
 */
export type ResponseOf<O extends OperationSchemas> = O['response'] extends z.ZodType ? z.output<O['response']> : undefined
