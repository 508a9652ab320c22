import * as z from 'zod'
import { describe, expect, it } from 'vitest'
import { json } from '../http/json/json-response.js'
import type { Mount, RouteDefinition } from '../routing/route.js'
import { buildOpenApiDocument, type OpenApiInput } from './document.js'

const handle = () => json({})
const item = z.object({ id: z.string(), size: z.int().min(0) }).meta({ id: 'TestItem' })

const documented: RouteDefinition = {
  method: 'PUT',
  path: '/items/{itemId}',
  operationId: 'updateItem',
  summary: 'Update an item',
  params: z.object({ itemId: z.string().describe('The item') }),
  query: z.object({ dryRun: z.enum(['yes', 'no']).optional() }),
  body: z.object({ size: z.int().min(0) }),
  responses: { 200: { body: item, headers: ['Location'] } },
  errors: [{ code: 'not_found', extra: z.object({ item_id: z.string() }) }, 'conflict'],
  security: { scheme: 'bearer', verify: () => undefined },
  handle,
}
const undocumented: RouteDefinition = { method: 'GET', path: '/items', summary: 'List items', handle }

function input(mounts: Mount[], extra: Partial<OpenApiInput> = {}): OpenApiInput {
  return { info: { title: 't', version: '1' }, mounts, areas: { things: { tag: 'Things', faults: true } }, ...extra }
}

describe('buildOpenApiDocument', () => {
  const doc = buildOpenApiDocument(input([{ area: 'things', origin: null, prefix: '/things', routes: [documented, undocumented] }], { origin: 'http://h:1' }))
  const operation = doc.paths['/things/items/{itemId}']!.put as any

  it('documents parameters, body, every status and the Bearer scheme of a route', () => {
    expect(operation.operationId).toBe('thingsUpdateItem')
    expect(operation.tags).toEqual(['Things'])
    expect(operation.parameters).toEqual([
      { name: 'itemId', in: 'path', required: true, schema: { type: 'string' }, description: 'The item' },
      { name: 'dryRun', in: 'query', required: false, schema: { type: 'string', enum: ['yes', 'no'] } },
    ])
    expect(operation.requestBody.content['application/json'].schema.properties.size).toMatchObject({ type: 'integer', minimum: 0 })
    expect(Object.keys(operation.responses)).toEqual(['200', '400', '401', '404', '409', '413', '415', '429', '500', '502', '503', '504', '4XX', '5XX'])
    expect(operation.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/TestItem' })
    expect(operation.responses['200'].headers).toEqual({ Location: { $ref: '#/components/headers/Location' } })
    expect(operation.security).toEqual([{ bearerAuth: [] }])
    expect(doc.components.securitySchemes).toMatchObject({ bearerAuth: { type: 'http', scheme: 'bearer' } })
    expect(doc.components.schemas!.TestItem).toMatchObject({ type: 'object', additionalProperties: false })
  })

  it('gives each error status its codes, the extra fields a route declares and the headers they carry', () => {
    const unauthorized = doc.components.responses![operation.responses['401'].$ref.split('/').pop()] as any
    expect(unauthorized.description).toContain('`token_expired`')
    expect(unauthorized.headers).toEqual({ 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } })
    const notFound = operation.responses['404'].content['application/json'].schema
    expect(notFound.allOf[0]).toEqual({ $ref: '#/components/schemas/ErrorBody' })
    // The route's own 404; beside it the 404 any route answers for an unknown world (it lacks the route's fields) and an injected fault's.
    expect(notFound.allOf[1].anyOf).toEqual([
      expect.objectContaining({ properties: { error: expect.objectContaining({ const: 'not_found' }), item_id: { type: 'string' } }, required: ['error', 'item_id'] }),
      { $ref: '#/components/schemas/UnknownWorldError' },
      { $ref: '#/components/schemas/InjectedFault' },
    ])
    expect(doc.components.schemas!.UnknownWorldError).toMatchObject({ properties: { world: { type: 'string' } }, required: ['error', 'world'], additionalProperties: true })
    // A path parameter holding a backslash is the HTTP server's 400 invalid_path, before the route.
    const badRequest = doc.components.responses!.ValidationFailedOrInvalidJsonOrInvalidPath as any
    expect(badRequest.content['application/json'].schema.allOf[1].anyOf).toEqual([
      { $ref: '#/components/schemas/ValidationFailedError' },
      { $ref: '#/components/schemas/InvalidJsonError' },
      { $ref: '#/components/schemas/InvalidPathError' },
      { $ref: '#/components/schemas/InjectedFault' },
    ])
  })

  it('refers to every component it holds, and keeps the answers of no operation apart', () => {
    const text = JSON.stringify(doc)
    for (const [kind, entries] of Object.entries(doc.components)) {
      if (kind === 'securitySchemes') continue
      for (const name of Object.keys(entries)) expect(text, `${kind}.${name}`).toContain(`"#/components/${kind}/${name}"`)
    }
    expect(Object.keys(doc['x-unrouted-responses'] as object)).toEqual(['UnknownRoute', 'MethodNotAllowed', 'HeadersTooLarge'])
    expect(doc.components.headers).not.toHaveProperty('Allow')
  })

  it('marks a route without operationId and responses as undocumented instead of guessing', () => {
    const list = doc.paths['/things/items']!.get as any
    expect(list).toMatchObject({ operationId: 'thingsGetItems', 'x-undocumented': true, responses: { default: { description: 'Not documented yet.' } } })
  })

  it('follows the mounts: an origin of its own is a path-level server; a second mount at the root repeats the operations', () => {
    const mounts: Mount[] = [
      { area: 'things', origin: 'https://things.example.com', prefix: '/v0', routes: [documented] },
      { area: 'things', origin: 'https://things.example.com', prefix: '', routes: [documented] },
    ]
    const twice = buildOpenApiDocument(input(mounts))
    expect(twice.servers).toEqual([{ url: '/', description: 'This simulator' }])
    expect(twice.paths['/v0/items/{itemId}']!.servers).toEqual([{ url: 'https://things.example.com' }])
    expect((twice.paths['/items/{itemId}']!.put as any).operationId).toBe('thingsUpdateItemAtRoot')
    const one = buildOpenApiDocument(input(mounts, { area: 'things', origin: 'http://h:1' }))
    expect(Object.keys(one.paths)).toEqual(['/items/{itemId}'])
    expect(one.servers).toEqual([{ url: 'https://things.example.com/v0' }, { url: 'https://things.example.com' }])
  })

  it('refuses to describe one path twice, pointing at the per-area document', () => {
    const mounts: Mount[] = [
      { area: 'things', origin: 'https://a.example.com', prefix: '', routes: [documented] },
      { area: 'other', origin: 'https://b.example.com', prefix: '', routes: [documented] },
    ]
    expect(() => buildOpenApiDocument(input(mounts))).toThrow(/Cannot describe \/items\/\{itemId\} twice.*--area/)
  })
})
