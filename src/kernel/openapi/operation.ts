import * as z from 'zod'
import { ANY_ROUTE_CODES, ERROR_CODES, type ErrorCode, FAULT_CODES } from '../errors/error-codes.js'
import { errorBody, errorDetail } from './error-body.js'
import { RESPONSE_HEADERS, type ResponseHeader } from '../http/response-headers.js'
import { bodySpec, type RouteDefinition, type RouteError } from '../routing/route.js'
import type { RecordedExample } from './examples.js'
import type { JsonSchema, SchemaComponents } from './schema-components.js'

/** Where the document keeps the shared pieces an operation refers to. */
export const REF = {
  errorBody: '#/components/schemas/ErrorBody',
  header: (name: ResponseHeader) => `#/components/headers/${name}`,
  response: (name: string) => `#/components/responses/${name}`,
} as const

/** The name of the Bearer scheme in `components.securitySchemes`. */
export const BEARER_SCHEME = 'bearerAuth'

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
}

export interface OperationContext {
  operationId: string
  tag: string
  /** The route may answer 503 (injected faults, maintenance). */
  faults: boolean
  /** Codes it may answer besides its own, from its area (`DocumentedArea.codes`). */
  extraCodes?: readonly ErrorCode[]
  components: SchemaComponents
  /** `components.responses`: an error status with one code and nothing route-specific is shared from here. */
  responses: Record<string, unknown>
  examples: readonly RecordedExample[]
}

/**
 * The OpenAPI operation of one route: parameters with their constraints, the
 * request body, every status the route can answer with its schema and headers,
 * and the recorded examples. A route without `operationId` and `responses` is
 * emitted with `x-undocumented: true` so the route-table test can name it.
 *
 * @example
 * const operation = buildOperation(route, { operationId: 'adminListUsers', tag: 'Area A', faults: true, components, examples: [] })
 */
export function buildOperation(route: RouteDefinition, context: OperationContext): Record<string, unknown> {
  const { components } = context
  const operation: Record<string, unknown> = { operationId: context.operationId, summary: route.summary, tags: [context.tag] }
  if (route.description) operation.description = route.description
  const succeeded = context.examples.filter((example) => example.status < 300)
  const parameters = [...pathParameters(route, components, succeeded), ...queryParameters(route, components, succeeded)]
  if (parameters.length > 0) operation.parameters = parameters
  if (route.body) {
    const content: Record<string, unknown> = { schema: components.convert(bodySpec(route.body).schema, 'input') }
    const bodies = succeeded.filter((example) => example.request.body !== undefined)
    if (bodies.length > 0) content.examples = exampleMap(bodies, (example) => example.request.body)
    operation.requestBody = { required: true, content: { 'application/json': content } }
  }
  if (route.security?.scheme === 'bearer') operation.security = [{ [BEARER_SCHEME]: [] }]
  if (!route.operationId || !route.responses) {
    operation['x-undocumented'] = true
    operation.responses = { default: { description: 'Not documented yet.' } }
    return operation
  }
  operation.responses = { ...successResponses(route, context), ...errorResponses(route, context) }
  return operation
}

function pathParameters(route: RouteDefinition, components: SchemaComponents, examples: readonly RecordedExample[]): unknown[] {
  const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!)
  return names.map((name) => {
    const schema = route.params?.shape[name] as z.ZodType | undefined
    return parameter(
      name,
      'path',
      true,
      schema ? components.convert(schema, 'output') : { type: 'string' },
      examples.find((example) => example.request.params?.[name])?.request.params?.[name],
    )
  })
}

function queryParameters(route: RouteDefinition, components: SchemaComponents, examples: readonly RecordedExample[]): unknown[] {
  if (!route.query) return []
  return Object.entries(route.query.shape as Record<string, z.ZodType>).map(([name, schema]) =>
    // Output side: the typed value the handler sees (`limit` is an integer 1..100), not the raw text.
    parameter(
      name,
      'query',
      !schema.safeParse(undefined).success,
      components.convert(schema, 'output'),
      examples.find((example) => example.request.query?.[name])?.request.query?.[name],
    ),
  )
}

function parameter(name: string, where: 'path' | 'query', required: boolean, schema: JsonSchema, example: string | undefined): Record<string, unknown> {
  const { description, ...rest } = schema
  const parameter: Record<string, unknown> = { name, in: where, required, schema: rest }
  if (typeof description === 'string') parameter.description = description
  if (example !== undefined) parameter.example = rest.type === 'integer' && /^-?\d+$/.test(example) ? Number(example) : example
  return parameter
}

function successResponses(route: RouteDefinition, context: OperationContext): Record<string, unknown> {
  const responses: Record<string, unknown> = {}
  for (const [status, response] of Object.entries(route.responses ?? {})) {
    const entry: Record<string, unknown> = { description: response.description ?? STATUS_TEXT[Number(status)] ?? 'Success' }
    if (response.headers?.length) entry.headers = headerRefs(response.headers)
    if (response.body && response.contentType) entry.content = { [response.contentType]: { schema: context.components.convert(response.body, 'output') } }
    else if (response.body) entry.content = jsonContent(context.components.convert(response.body, 'output'), context.examples, Number(status))
    responses[status] = entry
  }
  return responses
}

/** The 404 any route answers for a request naming an unknown world (`x-mock-world`, the `mock-world` cookie). */
const UNKNOWN_WORLD = { code: 'not_found', extra: z.object({ world: z.string() }), description: 'The `x-mock-world` header or `mock-world` cookie names no world.' } as const

/** The D9 codes a route can answer: its own plus those that follow from its shape. */
function errorCodes(route: RouteDefinition, faults: boolean, extra: readonly ErrorCode[]): Map<ErrorCode, Exclude<RouteError, string> | undefined> {
  const codes = new Map<ErrorCode, Exclude<RouteError, string> | undefined>()
  const add = (code: ErrorCode, doc?: Exclude<RouteError, string>) => {
    if (!codes.has(code) || doc) codes.set(code, doc)
  }
  if (route.params || route.query || route.body) add('validation_failed')
  if (route.body) for (const code of ['invalid_json', 'payload_too_large', 'unsupported_media_type'] as const) add(code)
  // A POST refuses a body declared as something else even when it reads none (D27: no simple cross-site request acts).
  if (route.method === 'POST') add('unsupported_media_type')
  if (route.security?.scheme === 'bearer') for (const code of ['unauthorized', 'invalid_token', 'token_expired'] as const) add(code)
  for (const error of route.errors ?? []) {
    if (typeof error === 'string') add(error)
    else add(error.code, error)
  }
  for (const code of ANY_ROUTE_CODES) add(code)
  if (faults) for (const code of FAULT_CODES) add(code)
  for (const code of extra) add(code)
  return codes
}

/**
 * The entries of `errorCodes`, plus the unknown-world 404 as a variant of its own
 * where the route documents a `not_found` with fields of its own: such a body
 * (`{error, message, world}`) lacks them (regression: the fuzzer's first find).
 */
function errorEntries(route: RouteDefinition, faults: boolean, extra: readonly ErrorCode[]): Array<[ErrorCode, Exclude<RouteError, string> | undefined]> {
  const entries = [...errorCodes(route, faults, extra)]
  const own = entries.find(([code, doc]) => code === 'not_found' && doc?.extra !== undefined)
  if (own) entries.push([UNKNOWN_WORLD.code, UNKNOWN_WORLD])
  return entries
}

function errorResponses(route: RouteDefinition, context: OperationContext): Record<string, unknown> {
  const byStatus = new Map<number, Array<[ErrorCode, Exclude<RouteError, string> | undefined]>>()
  for (const entry of errorEntries(route, context.faults, context.extraCodes ?? [])) {
    const status = ERROR_CODES[entry[0]].status
    byStatus.set(status, [...(byStatus.get(status) ?? []), entry])
  }
  const responses: Record<string, unknown> = {}
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const entries = byStatus.get(status)!
    const examples = context.examples.filter((example) => example.status === status)
    if (entries.every(([, doc]) => doc === undefined) && examples.length === 0) {
      const name = entries.map(([code]) => pascal(code)).join('Or')
      context.responses[name] ??= errorResponse(entries, context, [])
      responses[String(status)] = { $ref: REF.response(name) }
    } else responses[String(status)] = errorResponse(entries, context, examples)
  }
  return responses
}

function errorResponse(
  entries: ReadonlyArray<[ErrorCode, Exclude<RouteError, string> | undefined]>,
  context: OperationContext,
  examples: readonly RecordedExample[],
): Record<string, unknown> {
  const variants = entries.map(([code, doc]) => errorVariant(code, doc))
  const schema = { allOf: [{ $ref: REF.errorBody }, context.components.convert(variants.length === 1 ? variants[0]! : z.union(variants), 'output')] }
  const headers = entries.map(([code]) => (ERROR_CODES[code] as { header?: ResponseHeader }).header).filter((header) => header !== undefined)
  const response: Record<string, unknown> = {
    description: entries.map(([code, doc]) => `\`${code}\`: ${doc?.description ?? ERROR_CODES[code].description}`).join('\n\n'),
  }
  if (headers.length > 0) response.headers = headerRefs([...new Set(headers)])
  response.content = jsonContent(schema, examples, examples[0]?.status ?? 0)
  return response
}

/** `not_found` → `NotFound`. */
function pascal(code: string): string {
  return code.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase())
}

/** One code's body: ErrorBody with that code, `details` required for `validation_failed`, plus the route's extra fields. */
export function errorVariant(code: ErrorCode, doc?: { extra?: z.ZodObject }): z.ZodObject {
  // Loose: the variant is combined with ErrorBody (allOf), which brings `message`.
  return z
    .object({
      error: z.literal(code),
      ...(code === 'validation_failed' ? { details: z.array(errorDetail) } : {}),
      ...doc?.extra?.shape,
    })
    .loose()
}

function jsonContent(schema: JsonSchema, examples: readonly RecordedExample[], status: number): Record<string, unknown> {
  const content: Record<string, unknown> = { schema }
  const matching = examples.filter((example) => example.status === status && example.body !== undefined)
  if (matching.length > 0) content.examples = exampleMap(matching, (example) => example.body)
  return { 'application/json': content }
}

function exampleMap(examples: readonly RecordedExample[], value: (example: RecordedExample) => unknown): Record<string, unknown> {
  return Object.fromEntries(examples.map((example) => [example.name, { ...(example.summary ? { summary: example.summary } : {}), value: value(example) }]))
}

function headerRefs(headers: readonly ResponseHeader[]): Record<string, unknown> {
  return Object.fromEntries(headers.map((name) => [name, { $ref: REF.header(name) }]))
}

/** `components.headers` for every documented header. */
export function headerComponents(components: SchemaComponents): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(RESPONSE_HEADERS).map(([name, info]) => [name, { description: info.description, required: info.required, schema: components.convert(info.schema, 'output') }]),
  )
}

/** The component schema every error body refers to. */
export function errorBodyComponent(components: SchemaComponents): void {
  components.convert(errorBody, 'output')
}
