import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../src/index.js'
import { call } from './support/http.js'
import { OpenApiCheck, type ObservedReply } from './support/openapi-check.js'

const BASE = 'http://check.test'

/** A reply as `call()` would read it. */
function reply(status: number, body: unknown, headers: Record<string, string> = {}): ObservedReply {
  const text = body === undefined ? '' : JSON.stringify(body)
  return { status, body, text, headers: new Headers(body === undefined ? headers : { 'content-type': 'application/json; charset=utf-8', ...headers }) }
}

describe('the check that holds every reply against the document', () => {
  const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z' })
  const server = setupServer(...sim.handlers)
  let check: OpenApiCheck
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' })
    check = new OpenApiCheck(await sim.openapi({ origin: BASE }))
  })
  afterEach(() => server.resetHandlers())
  afterAll(() => server.close())

  const product = { id: 'prod-1001', name: 'Keyboard', description: 'Clicky.', price: 89.99, stock: 42 }
  const user = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'active', created_at: '2026-01-01T00:00:00.000Z' }

  it('accepts replies the document describes', () => {
    expect(check.problem('GET', `${BASE}/core/products/prod-1001`, reply(200, product))).toBeUndefined()
    expect(check.problem('GET', `${BASE}/admin/api/v1.2/users`, reply(200, [user], { 'x-total-count': '1', link: '</x>; rel="first"' }))).toBeUndefined()
    expect(check.problem('DELETE', `${BASE}/admin/api/v1.2/users/u1`, reply(204, undefined))).toBeUndefined()
    expect(check.problem('GET', `${BASE}/nowhere`, reply(404, { error: 'not_found', message: 'No route.' }))).toBeUndefined()
  })

  it('accepts what an injected fault answers: any error status of an area operation, listed or not', () => {
    const fault = (status: number, error: string) => reply(status, { error, message: `Injected (injected fault).` })
    // 418 is in no operation's list: the `4XX` range says what it is.
    expect(check.problem('GET', `${BASE}/core/products/prod-1001`, fault(418, 'im_a_teapot'))).toBeUndefined()
    expect(check.problem('GET', `${BASE}/core/products/prod-1001`, fault(507, 'insufficient_storage'))).toBeUndefined()
    // A listed 404 whose own body carries `id`: a fault's 404 has none, and says it is one.
    expect(check.problem('GET', `${BASE}/core/products/prod-1001`, fault(404, 'not_found'))).toBeUndefined()
    expect(check.problem('GET', `${BASE}/core/products/prod-1001`, reply(404, { error: 'not_found', message: 'No product.' }))).toMatch(/must have required property 'id'/)
  })

  it.each([
    ['a field the schema does not have', 'GET', '/core/products/prod-1001', reply(200, { ...product, colour: 'red' }), /must NOT have additional properties \(colour\)/],
    ['a missing field', 'GET', '/core/products/prod-1001', reply(200, { ...product, stock: undefined }), /must have required property 'stock'/],
    ['a wrong type', 'GET', '/core/products/prod-1001', reply(200, { ...product, price: '89.99' }), /body\/price must be number/],
    [
      'a value outside the enum',
      'GET',
      '/admin/api/v1.2/users/u1',
      reply(200, { ...user, status: 'gone', updated_at: user.created_at, last_login: null }),
      /body\/status must be equal to one of the allowed values/,
    ],
    [
      'a status the operation does not document (the control API has no fault ranges)',
      'GET',
      '/__mock/worlds',
      reply(418, { error: 'teapot', message: 'no' }),
      /answered 418 \(operation controlListWorlds\), but the document allows only 200, 401, 500\./,
    ],
    [
      'a success status an area operation does not document',
      'GET',
      '/core/products/prod-1001',
      reply(201, product),
      /answered 201 \(operation coreGetProduct\), but the document allows only 200, 400, 404, 429, 500, 502, 503, 504, 4XX, 5XX\./,
    ],
    [
      'an error status in a fault range with a body that is no error',
      'GET',
      '/core/products/prod-1001',
      reply(418, { teapot: true }),
      /answered 418[\s\S]*required property 'error'/,
    ],
    ['an error code documented for another status', 'GET', '/core/products/prod-1001', reply(404, { error: 'conflict', message: 'x' }), /body\/error must be equal to constant/],
    ['a 400 without details', 'POST', '/core/users', reply(400, { error: 'validation_failed', message: 'bad' }), /must have required property 'details'/],
    ['a missing required header', 'GET', '/admin/api/v1.2/users', reply(200, [user], { link: '</x>' }), /header X-Total-Count is missing/],
    ['a body where none is documented', 'DELETE', '/admin/api/v1.2/users/u1', reply(204, { deleted: true }), /a body where none is documented/],
    ['an unknown URL that is not the router 404', 'GET', '/nowhere', reply(200, { ok: true }), /no documented path matches it[\s\S]*status 200, expected 404/],
    [
      'a control API reply that grows a field',
      'GET',
      '/__mock/worlds',
      reply(200, { max: 32, idleMs: 1_800_000, header: 'x-mock-world', cookie: 'mock-world', worlds: [], count: 0 }),
      /operation controlListWorlds[\s\S]*additional properties \(count\)/,
    ],
    [
      'a known path answering an undocumented method with something else than 405',
      'PATCH',
      '/core/users',
      reply(200, {}),
      /which does not document PATCH[\s\S]*status 200, expected 405/,
    ],
  ])('catches %s', (_, method, path, observed, message) => {
    expect(check.problem(method, `${BASE}${path}`, observed)).toMatch(message)
  })

  it('makes call() fail with a readable message when a reply drifts from the document', async () => {
    server.use(http.get(`${BASE}/core/products/:id`, () => HttpResponse.json({ ...product, price: 'cheap', discount: 5 })))
    const error = await call(`${BASE}/core/products/prod-1001`).catch((caught: Error) => caught)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toBe(
      [
        'Reply does not match the OpenAPI document: GET /core/products/prod-1001 answered 200 (operation coreGetProduct)',
        '  - body must NOT have additional properties (discount)',
        '  - body/price must be number',
        `  body: ${JSON.stringify({ ...product, price: 'cheap', discount: 5 })}`,
      ].join('\n'),
    )
    server.resetHandlers()
    expect((await call(`${BASE}/core/products/prod-1001`)).status).toBe(200)
  })
})
