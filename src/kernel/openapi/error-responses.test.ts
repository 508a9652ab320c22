import * as z from 'zod'
import { describe, expect, it } from 'vitest'
import { json } from '../http/json/json-response.js'
import type { RouteDefinition } from '../routing/route.js'
import { type ErrorContext, errorResponses } from './error-responses.js'
import type { RecordedExample } from './examples.js'
import { ResponseParts } from './response-parts.js'
import { SchemaComponents } from './schema-components.js'

const handle = () => json({})
const route = (extra: Partial<RouteDefinition>): RouteDefinition => ({ method: 'GET', path: '/things/{id}', summary: 'A thing', operationId: 'getThing', handle, ...extra })
const example = (name: string, status: number, body: unknown, shape = false): RecordedExample => ({ name, request: {}, status, body, ...(shape ? { shape } : {}) })

function responses(definition: RouteDefinition, context: Partial<ErrorContext> = {}) {
  const parts = context.parts ?? new ResponseParts(new SchemaComponents())
  const answer = errorResponses(definition, { faults: false, securityErrors: [], parts, examples: [], namePrefix: '', ...context }) as Record<string, any>
  return { answer, parts }
}

describe('errorResponses', () => {
  it('documents validation_failed only when some parameter can be refused: any text in a path segment cannot', () => {
    const codes = (definition: RouteDefinition) => {
      const { answer, parts } = responses(definition)
      const badRequest = answer['400']?.$ref ? (parts.responses as any)[answer['400'].$ref.split('/').pop()] : answer['400']
      return (badRequest?.description ?? '').match(/^`[a-z_]+`/gm)
    }
    expect(codes(route({ params: z.object({ id: z.string().min(1) }) }))).toEqual(['`invalid_path`'])
    expect(codes(route({ params: z.object({ id: z.int() }) }))).toEqual(['`validation_failed`', '`invalid_path`'])
    // In a query, `?name=` is an empty text: a minimum length refuses it.
    expect(Object.keys(responses(route({ path: '/things', query: z.object({ name: z.string().min(1).optional() }) })).answer)).toContain('400')
    expect(Object.keys(responses(route({ path: '/things', query: z.object({ name: z.string().optional() }) })).answer)).not.toContain('400')
  })

  it("documents the HTTP server's 400 invalid_path on every route with a path parameter, with its answer as the example", () => {
    const parts = new ResponseParts(new SchemaComponents())
    const answer = responses(route({}), { parts }).answer
    expect(Object.keys(answer)).toEqual(['400', '404', '500'])
    expect(answer['400']).toEqual({ $ref: '#/components/responses/InvalidPath' })
    const invalidPath = parts.responses.InvalidPath as any
    expect(invalidPath.description).toMatch(/^`invalid_path`: A path parameter holds a backslash \(`%5C`\)/)
    expect(invalidPath.content['application/json'].schema.allOf[1]).toEqual({ $ref: '#/components/schemas/InvalidPathError' })
    expect(invalidPath.content['application/json'].examples.invalidPath.value).toEqual({ error: 'invalid_path', message: expect.stringContaining('backslashes') })
    expect(Object.keys(responses(route({ path: '/things' })).answer)).toEqual(['404', '500'])
  })

  it('names the body of each code and shares a response that holds nothing of the route', () => {
    const parts = new ResponseParts(new SchemaComponents())
    const first = responses(route({}), { parts }).answer
    const second = responses(route({ path: '/other' }), { parts }).answer
    expect(first['404']).toEqual({ $ref: '#/components/responses/NotFound' })
    expect(second['404']).toEqual(first['404'])
    expect(parts.responses.NotFound).toMatchObject({
      content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/ErrorBody' }, { $ref: '#/components/schemas/NotFoundError' }] } } },
    })
    expect(parts.components.schemas.NotFoundError).toEqual({
      type: 'object',
      properties: { error: { type: 'string', const: 'not_found' } },
      required: ['error'],
      additionalProperties: true,
    })
    // A prefix keeps the control API's responses apart from the areas'.
    expect(responses(route({}), { parts, namePrefix: 'Control' }).answer['404']).toEqual({ $ref: '#/components/responses/ControlNotFound' })
  })

  it("keeps a route's own error inline, with its fields, and drops the unknown-world variant when it has the same shape", () => {
    const own = responses(route({ errors: [{ code: 'not_found', extra: z.object({ thing_id: z.string() }), description: 'No such thing.' }] })).answer['404']
    expect(own.description).toBe('`not_found`: No such thing.\n\n`not_found`: The `x-mock-world` header or `mock-world` cookie names no world.')
    expect(own.content['application/json'].schema.allOf[1].anyOf).toHaveLength(2)
    const world = responses(route({ errors: [{ code: 'not_found', extra: z.object({ world: z.string() }), description: 'No such world.' }] })).answer['404']
    expect(world.content['application/json'].schema.allOf[1]).toMatchObject({ properties: { world: { type: 'string' } } })
  })

  it('leaves out the unknown-world 404 of a route that answers any world', () => {
    expect(Object.keys(responses(route({ path: '/things' }), { anyWorld: true }).answer)).toEqual(['500'])
  })

  it("where faults reach, lets every listed status be an injected fault's and adds the 4XX and 5XX ranges", () => {
    const { answer, parts } = responses(route({ path: '/things' }), { faults: true })
    expect(Object.keys(answer)).toEqual(['404', '429', '500', '502', '503', '504', '4XX', '5XX'])
    expect(parts.responses.NotFound).toMatchObject({
      content: { 'application/json': { schema: { allOf: [{}, { anyOf: [{ $ref: '#/components/schemas/NotFoundError' }, { $ref: '#/components/schemas/InjectedFault' }] }] } } },
    })
    expect(answer['4XX']).toEqual({ $ref: '#/components/responses/ClientError' })
    expect(parts.responses.ClientError).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } })
    expect(parts.components.schemas.InjectedFault).toMatchObject({ properties: { message: { pattern: '\\(injected fault\\)' } } })
    expect(Object.keys(responses(route({ path: '/things' })).answer)).not.toContain('4XX')
  })

  it("shows a route's own examples of a status, else one example of each code its shape answers", () => {
    const unknown = example('unknown', 404, { error: 'not_found', message: 'No thing.' })
    const world = example('unknownWorld', 404, { error: 'not_found', message: 'No world.', world: 'w' }, true)
    const bug = example('bug', 500, { error: 'internal_error', message: 'A bug.' }, true)
    const fault = example('injected500', 500, { error: 'internal_error', message: 'Failed (injected fault).' }, true)
    const teapot = example('injected418', 418, { error: 'im_a_teapot', message: 'Tea (injected fault).' }, true)
    const { answer, parts } = responses(route({}), { faults: true, examples: [unknown, world, fault, bug, teapot] })
    expect(Object.keys(answer['404'].content['application/json'].examples)).toEqual(['unknown'])
    expect(Object.keys((parts.responses.InternalError as any).content['application/json'].examples)).toEqual(['injected500'])
    expect((parts.responses.ClientError as any).content['application/json'].examples).toEqual({ injected418: { value: teapot.body } })
  })
})
