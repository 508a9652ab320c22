import { describe, expect, it } from 'vitest'
import { json } from '../http/json/json-response.js'
import type { Mount, RouteDefinition } from '../routing/route.js'
import { buildOpenApiDocument } from './document.js'
import type { AreaSecurity } from './security.js'

const handle = () => json({})
const open: RouteDefinition = { method: 'GET', path: '/open', summary: 'Open', operationId: 'open', responses: { 200: {} }, handle }
const guarded: RouteDefinition = { ...open, path: '/guarded', operationId: 'guarded' }
const bearer: RouteDefinition = { ...open, method: 'PUT', path: '/mine', operationId: 'mine', security: { scheme: 'bearer', verify: () => undefined } }

const token: AreaSecurity = {
  scheme: 'adminToken',
  definition: { type: 'http', scheme: 'bearer', description: 'Only when the server has one.' },
  optional: true,
  errors: [{ code: 'unauthorized', description: 'No admin token.' }],
  exempt: ['open'],
}

describe('security in the document', () => {
  const mounts: Mount[] = [
    { area: 'shop', origin: null, prefix: '/shop', routes: [open, bearer] },
    { area: 'admin', origin: null, prefix: '/admin', routes: [open, guarded] },
  ]
  const doc = buildOpenApiDocument({
    info: { title: 't', version: '1' },
    mounts,
    areas: { shop: { tag: 'shop', faults: true }, admin: { tag: 'admin', faults: false, security: token, responsePrefix: 'Admin' } },
  })
  const operation = (path: string, method = 'get') => doc.paths[path]![method] as any

  it('says `security: []` on an operation that needs nothing, and the Bearer scheme on a route that declares it', () => {
    expect(operation('/shop/open').security).toEqual([])
    expect(operation('/shop/mine', 'put').security).toEqual([{ bearerAuth: [] }])
    expect(Object.keys(operation('/shop/mine', 'put').responses)).toContain('401')
  })

  it("puts an area's optional scheme beside `{}` on its routes, with its 401s, but not on the routes it exempts", () => {
    expect(operation('/admin/guarded').security).toEqual([{ adminToken: [] }, {}])
    expect(operation('/admin/guarded').responses['401']).toEqual({ $ref: '#/components/responses/AdminUnauthorized' })
    expect((doc.components.responses!.AdminUnauthorized as any).description).toBe('`unauthorized`: No admin token.')
    expect(operation('/admin/open').security).toEqual([])
    expect(Object.keys(operation('/admin/open').responses)).not.toContain('401')
  })

  it('defines the schemes in use, and only those', () => {
    expect(Object.keys(doc.components.securitySchemes!)).toEqual(['bearerAuth', 'adminToken'])
    const shopOnly = buildOpenApiDocument({
      info: { title: 't', version: '1' },
      mounts: [mounts[0]!],
      areas: { shop: { tag: 'shop', faults: true }, admin: { tag: 'admin', faults: false, security: token } },
    })
    expect(Object.keys(shopOnly.components.securitySchemes!)).toEqual(['bearerAuth'])
  })
})
