import * as z from 'zod'
import { ANY_ROUTE_CODES, ERROR_CODES, type ErrorCode, FAULT_CODES } from '../errors/error-codes.js'
import type { ResponseHeader } from '../http/response-headers.js'
import type { RouteDefinition, RouteError } from '../routing/route.js'
import { errorDetail, injectedFault } from './error-body.js'
import { OPEN } from '../schema/open-object.js'
import type { RecordedExample } from './examples.js'
import { hasPathParameter, INVALID_PATH, invalidPathExample } from './invalid-path.js'
import { toJsonSchema } from './json-schema.js'
import { exampleMap, REF, type ResponseParts } from './response-parts.js'

/** A code with what the route says about it (extra fields, its own description). */
export type ErrorEntry = readonly [ErrorCode, Exclude<RouteError, string> | undefined]

/** What decides a route's error responses besides the route itself. */
export interface ErrorContext {
  /** The route may answer an injected fault (area routes): any status 400-599. */
  faults: boolean
  /** Errors its security adds (the control token's 401s), from `operationSecurity`. */
  securityErrors: readonly Exclude<RouteError, string>[]
  /** The route never answers an unknown world's 404 (the routes that manage worlds). */
  anyWorld?: boolean
  parts: ResponseParts
  /** Its recorded examples, successes and errors alike. */
  examples: readonly RecordedExample[]
  /** Prefix of the names of the responses it shares (`Control`: `ControlNotFound`); `''` for none. */
  namePrefix: string
}

/** The 404 any route answers for a request naming an unknown world (`x-mock-world`, the `mock-world` cookie). */
const UNKNOWN_WORLD = {
  code: 'not_found',
  extra: z.object({ world: z.string() }),
  description: 'The `x-mock-world` header or `mock-world` cookie names no world.',
} as const satisfies Exclude<RouteError, string>

/** Statuses the `4XX` and `5XX` ranges stand for. */
const RANGES = [
  {
    key: '4XX',
    name: 'ClientError',
    description:
      'Any other status from 400 to 499: what an injected fault (a rule of `PUT /__mock/faults`, or `Prefer: code=`) answers instead of the route, or the HTTP server before any route (`403` for a refused Host or Origin, `408` for a request too slow, `431` for headers over 16 KiB). The body is always an error body.',
  },
  {
    key: '5XX',
    name: 'ServerError',
    description: 'Any other status from 500 to 599: what an injected fault answers instead of the route. The body is always an error body.',
  },
] as const

/**
 * Every error response of a route: one per status its codes answer, each with
 * the body of every code (the route's own extra fields included), the headers
 * they carry and examples; on routes faults reach, every one of them may also
 * be an injected fault's body, and the `4XX` and `5XX` ranges stand for the
 * other statuses a fault may answer. A response that holds nothing of the route
 * is shared through `components.responses`.
 *
 * @example
 * errorResponses(route, { faults: true, securityErrors: [], parts, examples, namePrefix: '' }) // { '400': { $ref: '#/components/responses/ValidationFailed' }, ... }
 */
export function errorResponses(route: RouteDefinition, context: ErrorContext): Record<string, unknown> {
  const byStatus = new Map<number, ErrorEntry[]>()
  for (const entry of errorEntries(route, context)) {
    const status = ERROR_CODES[entry[0]].status
    byStatus.set(status, [...(byStatus.get(status) ?? []), entry])
  }
  // No request in-process gets the HTTP server's `invalid_path`: its example is made, as the gate words it.
  const recorded = hasPathParameter(route) ? [...context.examples, invalidPathExample()] : context.examples
  const responses: Record<string, unknown> = {}
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const entries = byStatus.get(status)!
    const own = recorded.filter((example) => example.status === status && !example.shape)
    const examples = own.length > 0 ? own : oneExamplePerCode(recorded.filter((example) => example.status === status))
    const response = errorResponse(entries, context, examples)
    // Shared only when nothing in it is the route's own (its fields, its descriptions, its examples).
    const shareable = own.length === 0 && entries.every(([, doc]) => doc === undefined || doc === INVALID_PATH || context.securityErrors.includes(doc))
    responses[String(status)] = shareable ? context.parts.share(`${context.namePrefix}${pascalNames(entries)}`, response) : response
  }
  if (context.faults) {
    for (const range of RANGES) {
      const first = Number(range.key[0]) * 100
      const examples = context.examples.filter((example) => example.shape && example.status >= first && example.status < first + 100 && !byStatus.has(example.status))
      const content: Record<string, unknown> = { schema: { $ref: REF.schema('ErrorBody') } }
      if (examples.length > 0) content.examples = exampleMap(examples.slice(0, 1), (example) => example.body)
      responses[range.key] = context.parts.share(`${context.namePrefix}${range.name}`, { description: range.description, content: { 'application/json': content } })
    }
  }
  return responses
}

/** The codes a route can answer: its own plus those that follow from its shape, its security and its area. */
function errorEntries(route: RouteDefinition, context: ErrorContext): ErrorEntry[] {
  const codes = new Map<ErrorCode, Exclude<RouteError, string> | undefined>()
  const add = (code: ErrorCode, doc?: Exclude<RouteError, string>) => {
    if (!codes.has(code) || doc) codes.set(code, doc)
  }
  if (route.body || mayRefuse(route.params, 'path') || mayRefuse(route.query, 'query')) add('validation_failed')
  if (route.body) for (const code of ['invalid_json', 'payload_too_large', 'unsupported_media_type'] as const) add(code)
  if (hasPathParameter(route)) add(INVALID_PATH.code, INVALID_PATH)
  // A POST refuses a body declared as something else even when it reads none (no simple cross-site request acts).
  if (route.method === 'POST') add('unsupported_media_type')
  if (route.security?.scheme === 'bearer') for (const code of ['unauthorized', 'invalid_token', 'token_expired'] as const) add(code)
  for (const error of route.errors ?? []) {
    if (typeof error === 'string') add(error)
    else add(error.code, error)
  }
  for (const code of ANY_ROUTE_CODES) if (!(code === 'not_found' && context.anyWorld)) add(code)
  if (context.faults) for (const code of FAULT_CODES) add(code)
  for (const error of context.securityErrors) add(error.code, error)
  const entries: ErrorEntry[] = [...codes]
  // A route's own 404 with fields of its own: the unknown world's body (`{error, message, world}`) lacks them.
  const own = entries.find(([code, doc]) => code === 'not_found' && doc?.extra !== undefined)
  if (own && !context.anyWorld && !sameShape(own[1]!.extra!, UNKNOWN_WORLD.extra)) entries.push([UNKNOWN_WORLD.code, UNKNOWN_WORLD])
  return entries
}

function errorResponse(entries: readonly ErrorEntry[], context: ErrorContext, examples: readonly RecordedExample[]): Record<string, unknown> {
  const variants = entries.map(([code, doc]) => errorVariant(code, doc))
  const union = context.faults ? [...variants, injectedFault] : variants
  const schema = { allOf: [{ $ref: REF.schema('ErrorBody') }, context.parts.components.convert(union.length === 1 ? union[0]! : z.union(union), 'output')] }
  const headers = [...new Set(entries.map(([code]) => (ERROR_CODES[code] as { header?: ResponseHeader }).header).filter((header) => header !== undefined))]
  const lines = entries.map(([code, doc]) => `\`${code}\`: ${doc?.description ?? ERROR_CODES[code].description}`)
  if (context.faults) lines.push('Or an injected fault (`InjectedFault`).')
  const response: Record<string, unknown> = { description: lines.join('\n\n') }
  if (headers.length > 0) response.headers = context.parts.headerRefs(headers)
  const content: Record<string, unknown> = { schema }
  if (examples.length > 0) content.examples = exampleMap(examples, (example) => example.body)
  response.content = { 'application/json': content }
  return response
}

/**
 * One code's body: ErrorBody with that code, `details` required for
 * `validation_failed`, plus the route's extra fields. Without extra fields it
 * is the same for every route, so it is named (`NotFoundError`) and shared.
 *
 * @example
 * errorVariant('not_found') // { error: 'not_found', ... }, as `components.schemas.NotFoundError`
 */
export function errorVariant(code: ErrorCode, doc?: { extra?: z.ZodObject }): z.ZodObject {
  // Loose: the variant is combined with ErrorBody (allOf), which brings `message`.
  const variant = z
    .object({
      error: z.literal(code),
      ...(code === 'validation_failed' ? { details: z.array(errorDetail) } : {}),
      ...doc?.extra?.shape,
    })
    .loose()
  if (doc?.extra === undefined) return variant.meta({ id: variantName(code), ...OPEN })
  return variant.meta(doc === UNKNOWN_WORLD ? { id: 'UnknownWorldError', ...OPEN } : OPEN)
}

/** `not_found` → `NotFoundError`, `internal_error` → `InternalError`. */
function variantName(code: ErrorCode): string {
  const name = pascal(code)
  return name.endsWith('Error') ? name : `${name}Error`
}

/** The first example of each error code: enough to show every body the status has. */
function oneExamplePerCode(examples: readonly RecordedExample[]): RecordedExample[] {
  const seen = new Set<unknown>()
  return examples.filter((example) => {
    const code = (example.body as { error?: unknown } | undefined)?.error
    if (seen.has(code)) return false
    seen.add(code)
    return true
  })
}

/** `not_found` + `invalid_json` → `NotFoundOrInvalidJson`. */
function pascalNames(entries: readonly ErrorEntry[]): string {
  return entries.map(([code]) => pascal(code)).join('Or')
}

/** `not_found` → `NotFound`. */
function pascal(code: string): string {
  return code.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase())
}

/** Keywords that say something about a value without refusing any. */
const WORDS_ONLY = new Set(['$schema', 'description', 'title', 'default', 'examples'])

/**
 * Whether some value of `params` or `query` can be refused: not when each is
 * any text (a path segment is never empty, so `minLength: 1` refuses none).
 * A 400 that no request can get is not documented.
 */
function mayRefuse(shape: z.ZodObject | undefined, where: 'path' | 'query'): boolean {
  if (shape === undefined) return false
  return Object.values(shape.shape as Record<string, z.ZodType>).some((schema) => {
    const { type, minLength, ...rest } = toJsonSchema(schema, 'output')
    const anyText = type === 'string' && Object.keys(rest).every((key) => WORDS_ONLY.has(key))
    return !(anyText && (minLength === undefined || (where === 'path' && minLength === 1)))
  })
}

function sameShape(a: z.ZodObject, b: z.ZodObject): boolean {
  return JSON.stringify(z.toJSONSchema(a)) === JSON.stringify(z.toJSONSchema(b))
}
