import type * as z from 'zod'
import { bodySpec, type RouteDefinition } from '../routing/route.js'
import { errorResponses } from './error-responses.js'
import type { RecordedExample } from './examples.js'
import { exampleMap, type ResponseParts } from './response-parts.js'
import type { JsonSchema, SchemaComponents } from './schema-components.js'
import { type AreaSecurity, operationSecurity } from './security.js'

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
}

export interface OperationContext {
  operationId: string
  tag: string
  /** The route may answer injected faults (area routes): any status 400-599. */
  faults: boolean
  /** The scheme its area is guarded with from outside the routes (the control token). */
  security?: AreaSecurity
  /** The route answers whatever world a request names (the routes that manage worlds): no unknown-world 404. */
  anyWorld?: boolean
  /** Prefix of the names of the error responses it shares (`Control`); `''` for none. */
  namePrefix?: string
  parts: ResponseParts
  /** Its recorded examples: the route's own requests and those that show the errors of its shape. */
  examples: readonly RecordedExample[]
}

/**
 * The OpenAPI operation of one route: summary, description, tag and security;
 * parameters with their constraints, the request body, every status the route
 * can answer with its schema, headers and examples. A route without
 * `operationId` and `responses` is emitted with `x-undocumented: true` so the
 * route-table test can name it.
 *
 * @example
 * const operation = buildOperation(route, { operationId: 'adminListUsers', tag: 'admin', faults: true, parts, examples: [] })
 */
export function buildOperation(route: RouteDefinition, context: OperationContext): Record<string, unknown> {
  const { components } = context.parts
  const { security, errors } = operationSecurity(route, context.security)
  const operation: Record<string, unknown> = { operationId: context.operationId, summary: route.summary }
  if (route.description) operation.description = route.description
  operation.tags = [context.tag]
  operation.security = security
  const succeeded = context.examples.filter((example) => example.status < 300 && !example.shape)
  const parameters = [...pathParameters(route, components, succeeded), ...queryParameters(route, components, succeeded)]
  if (parameters.length > 0) operation.parameters = parameters
  if (route.body) {
    const content: Record<string, unknown> = { schema: components.convert(bodySpec(route.body).schema, 'input') }
    const bodies = succeeded.filter((example) => example.request.body !== undefined)
    if (bodies.length > 0) content.examples = exampleMap(bodies, (example) => example.request.body)
    operation.requestBody = { required: true, content: { 'application/json': content } }
  }
  if (!route.operationId || !route.responses) {
    operation['x-undocumented'] = true
    operation.responses = { default: { description: 'Not documented yet.' } }
    return operation
  }
  operation.responses = {
    ...successResponses(route, context),
    ...errorResponses(route, {
      faults: context.faults,
      securityErrors: errors,
      anyWorld: context.anyWorld ?? false,
      parts: context.parts,
      examples: context.examples,
      namePrefix: context.namePrefix ?? '',
    }),
  }
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
  const { components } = context.parts
  const responses: Record<string, unknown> = {}
  for (const [status, response] of Object.entries(route.responses ?? {})) {
    const entry: Record<string, unknown> = { description: response.description ?? STATUS_TEXT[Number(status)] ?? 'Success' }
    if (response.headers?.length) entry.headers = context.parts.headerRefs(response.headers)
    if (response.body) {
      const content: Record<string, unknown> = { schema: components.convert(response.body, 'output') }
      const examples = context.examples.filter((example) => example.status === Number(status) && example.body !== undefined && !example.shape)
      if (!response.contentType && examples.length > 0) content.examples = exampleMap(examples, (example) => example.body)
      entry.content = { [response.contentType ?? 'application/json']: content }
    }
    responses[status] = entry
  }
  return responses
}
