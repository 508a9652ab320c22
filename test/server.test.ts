/**
 * HTTP behaviour of the real CLI server (`bin/multi-area-mock.js serve`, run
 * `npm run build` first): CORS, the D27 404, malformed input, and the control
 * API (D26). One server process for the whole file, stopped in `afterAll`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ALL_AREAS } from '../src/areas/registry.js'
import { type CliServer, startCli } from './support/cli-server.js'
import { type Reply, call as callUrl } from './support/http.js'
import { rawExchange } from './support/raw-http.js'

let server: CliServer
let base: string

beforeAll(async () => {
  server = await startCli(['--seed', '1', '--clock', '2026-01-01T00:00:00Z', '--quiet'])
  base = server.url
})

afterAll(async () => {
  await server?.stop()
})

/** A request to the server under test, by path. */
function call(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Reply> {
  return callUrl(`${base}${path}`, init)
}

/** Sends a raw HTTP/1.1 request line (fetch would normalise the URL) and returns the status and body. */
async function raw(target: string): Promise<{ status: number; body: string }> {
  const [reply] = await rawExchange(base, `GET ${target} HTTP/1.1\r\nHost: ${new URL(base).host}\r\nConnection: close\r\n\r\n`, 1)
  if (!reply) throw new Error(`no response to GET ${target.slice(0, 80)}`)
  return reply
}

function expectNoStackTrace(text: string): void {
  expect(text).not.toMatch(/^\s+at\s/m)
  expect(text).not.toMatch(/\.(js|ts):\d+:\d+/)
}

async function expectHealthy(): Promise<void> {
  const health = await call('/__mock/health')
  expect(health.status).toBe(200)
  expect(health.body.status).toBe('ok')
}

describe('CORS (D27)', () => {
  it('answers a preflight with 204 and allows the requested origin, method and headers', async () => {
    const reply = await call('/admin/api/v1.2/users/some-id', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type, authorization, x-custom',
      },
    })
    expect(reply.status).toBe(204)
    expect(reply.text).toBe('')
    expect(reply.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    const methods = reply.headers.get('access-control-allow-methods') ?? ''
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) expect(methods).toContain(method)
    const allowed = (reply.headers.get('access-control-allow-headers') ?? '').toLowerCase()
    for (const header of ['content-type', 'authorization', 'x-custom']) expect(allowed).toContain(header)
  })

  it('answers a preflight on any path, even one no area claims', async () => {
    const reply = await call('/nothing/here', {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:8080', 'access-control-request-method': 'POST' },
    })
    expect(reply.status).toBe(204)
    expect(reply.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:8080')
    expect(reply.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type')
  })

  it('puts allow-origin on normal responses and exposes X-Total-Count and Link', async () => {
    const withOrigin = await call('/admin/api/v1.2/users?limit=2', { headers: { origin: 'http://localhost:3000' } })
    expect(withOrigin.status).toBe(200)
    expect(withOrigin.headers.get('access-control-allow-origin')).toBe('http://localhost:3000')
    const exposed = (withOrigin.headers.get('access-control-expose-headers') ?? '').toLowerCase()
    expect(exposed).toContain('x-total-count')
    expect(exposed).toContain('link')
    expect(withOrigin.headers.get('x-total-count')).toMatch(/^\d+$/)
    expect(withOrigin.headers.get('link')).toContain('rel="next"')

    // Not a CORS request: nothing to allow.
    const withoutOrigin = await call('/core/users')
    expect(withoutOrigin.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('exposes Preference-Applied, so a browser app can see its Prefer was honoured', async () => {
    const requests: Record<string, string>[] = [
      { origin: 'http://localhost:3000', prefer: 'code=503' },
      { origin: 'http://[::1]:3000', prefer: 'code=503' },
    ]
    for (const headers of requests) {
      const reply = await call('/core/products/prod-1001', { headers })
      expect(reply.status).toBe(503)
      expect(reply.headers.get('preference-applied')).toBe('code=503')
      const exposed = (reply.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/)
      expect(exposed).toContain('preference-applied')
    }
  })

  it('puts allow-origin on error responses too, so a browser can read them', async () => {
    const notFound = await call('/nothing/here', { headers: { origin: 'http://localhost:3000' } })
    expect(notFound.status).toBe(404)
    expect(notFound.headers.get('access-control-allow-origin')).toBe('http://localhost:3000')
    const invalid = await call('/admin/api/v1.2/users', { method: 'POST', json: {}, headers: { origin: 'http://localhost:3000' } })
    expect(invalid.status).toBe(400)
    expect(invalid.headers.get('access-control-allow-origin')).toBe('http://localhost:3000')
  })
})

describe('unmatched paths (D27)', () => {
  it.each([
    { path: '/nothing/here', suggestion: undefined },
    { path: '/admin-typo/x', suggestion: 'GET /admin/api/v1.2/users' },
    { path: '/adm/api/v1.2/users', suggestion: 'GET /admin/api/v1.2/users' },
    { path: '/cor/users', suggestion: 'GET /core/users' },
  ])('$path is a 404 JSON listing the mounted areas and suggesting a route', async ({ path, suggestion }) => {
    const reply = await call(path)
    expect(reply.status).toBe(404)
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/)
    expect(reply.body.error).toBe('not_found')
    expect(reply.body.message).toContain(path)
    // Every area this build ships, at its D1 prefix.
    expect(reply.body.areas).toEqual(ALL_AREAS.map(({ id, letter, prefix }) => expect.objectContaining({ id, letter, baseUrls: [prefix] })))
    expect(reply.body.suggestion).toMatch(/^(GET|POST|PUT|DELETE) \/\S+$/)
    expect(reply.body.message).toContain(`Did you mean ${reply.body.suggestion}?`)
    if (suggestion) expect(reply.body.suggestion).toBe(suggestion)
    // The suggestion is a real route: following it does not 404.
    const [method, suggested] = reply.body.suggestion.split(' ')
    if (method === 'GET' && !suggested.includes('{')) expect((await call(suggested)).status).not.toBe(404)
  })

  it('a typo inside an area is a 404 suggesting the route in that area', async () => {
    const reply = await call('/admin/api/v1.2/userz')
    expect(reply.status).toBe(404)
    expect(reply.body).toMatchObject({ error: 'not_found', suggestion: 'GET /admin/api/v1.2/users' })
  })

  it('a known path with the wrong method is 405 with Allow', async () => {
    const reply = await call('/core/users', { method: 'DELETE' })
    expect(reply.status).toBe(405)
    expect(reply.body.error).toBe('method_not_allowed')
    expect(reply.headers.get('allow')).toContain('GET')
  })
})

describe('malformed input never crashes the server nor shows a stack trace (D9, D11)', () => {
  const users = '/admin/api/v1.2/users'

  beforeEach(async () => {
    expect((await call('/__mock/reset', { method: 'POST' })).status).toBe(200)
  })

  async function count(): Promise<string | null> {
    return (await call(`${users}?limit=1`)).headers.get('x-total-count')
  }

  it('invalid JSON is 400 invalid_json and writes nothing', async () => {
    const before = await count()
    const reply = await call(users, { method: 'POST', body: '{"username": "abc",', headers: { 'content-type': 'application/json' } })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe('invalid_json')
    expect(typeof reply.body.message).toBe('string')
    expectNoStackTrace(reply.text)
    expect(await count()).toBe(before)
  })

  it('a non-JSON content type is 415', async () => {
    const reply = await call(users, {
      method: 'POST',
      body: JSON.stringify({ username: 'plain.text', email: 'p@example.com', password: 'Passw0rd!!' }),
      headers: { 'content-type': 'text/plain' },
    })
    expect(reply.status).toBe(415)
    expect(reply.body.error).toBe('unsupported_media_type')
    expectNoStackTrace(reply.text)
  })

  it('a body over 1 MiB (with Content-Length) is 413', async () => {
    const before = await count()
    const body = JSON.stringify({ username: 'big.body', email: 'big@example.com', password: 'Passw0rd!!', padding: 'x'.repeat(1_100_000) })
    const reply = await call(users, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
    expect(reply.status).toBe(413)
    expect(reply.body.error).toBe('payload_too_large')
    expectNoStackTrace(reply.text)
    expect(await count()).toBe(before)
  })

  it('a streamed (chunked) body over 1 MiB is 413 as soon as the limit is passed', async () => {
    const payload = new TextEncoder().encode(JSON.stringify({ username: 'big.stream', email: 'big@example.com', password: 'Passw0rd!!', padding: 'x'.repeat(1_100_000) }))
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= payload.length) return controller.close()
        const chunk = payload.slice(sent, sent + 64 * 1024)
        sent += chunk.length
        controller.enqueue(chunk)
      },
    })
    const started = Date.now()
    let status: number | string
    let text = ''
    try {
      const response = await fetch(`${base}${users}`, {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { 'content-type': 'application/json' },
        signal: AbortSignal.timeout(5_000),
      } as RequestInit)
      status = response.status
      text = await response.text()
    } catch (error) {
      status = `no response after ${Date.now() - started} ms (${(error as Error).name})`
    }
    expect(status).toBe(413)
    expect(JSON.parse(text).error).toBe('payload_too_large')
    await expectHealthy()
  })

  it('a JSON array where an object is expected is 400 validation_failed', async () => {
    const reply = await call(users, { method: 'POST', json: [{ username: 'in.array', email: 'a@example.com', password: 'Passw0rd!!' }] })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe('validation_failed')
    expect(reply.body.details).toEqual([expect.objectContaining({ path: '' })])
    expectNoStackTrace(reply.text)
  })

  it.each([
    { what: 'a null body', json: null },
    { what: 'a string body', json: 'hello' },
    { what: 'a number body', json: 42 },
  ])('$what where an object is expected is 400 validation_failed', async ({ json }) => {
    const reply = await call(users, { method: 'POST', body: JSON.stringify(json), headers: { 'content-type': 'application/json' } })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe('validation_failed')
  })

  it('an empty body is 400', async () => {
    const reply = await call(users, { method: 'POST', body: '', headers: { 'content-type': 'application/json' } })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe('validation_failed')
  })

  it('bad percent-encoding in a path parameter is a JSON 404, not a 500', async () => {
    const reply = await raw(`${users}/%E0%A4%A`)
    expect(reply.status).toBe(404)
    const body = JSON.parse(reply.body)
    expect(body.error).toBe('not_found')
    expect(body.message).toContain('%E0%A4%A')
    expectNoStackTrace(reply.body)
  })

  it('bad percent-encoding outside any area is the D27 JSON 404', async () => {
    const reply = await raw('/%E0%A4%A/%ZZ')
    expect(reply.status).toBe(404)
    expect(JSON.parse(reply.body)).toMatchObject({ error: 'not_found', areas: expect.any(Array) })
  })

  it('bad percent-encoding in a query parameter is 400 validation_failed', async () => {
    const reply = await raw(`${users}?page=%E0%A4%A`)
    expect(reply.status).toBe(400)
    expect(JSON.parse(reply.body)).toMatchObject({ error: 'validation_failed', details: [expect.objectContaining({ path: 'query.page' })] })
  })

  it('a request target that is not a path is a JSON 400', async () => {
    const reply = await raw('*')
    expect(reply.status).toBe(400)
    expect(JSON.parse(reply.body).error).toBe('validation_failed')
  })

  it('a very long URL (10 000 characters) is a JSON 404', async () => {
    const id = 'a'.repeat(10_000)
    const reply = await call(`${users}/${id}`)
    expect(reply.status).toBe(404)
    expect(reply.body.error).toBe('not_found')
    expectNoStackTrace(reply.text)
  })

  it('a URL over the header limit (20 000 characters) is refused with a 4xx and the server lives on', async () => {
    const reply = await call(`/core/users?q=${'b'.repeat(20_000)}`)
    expect(reply.status).toBe(431)
    expect(reply.body.error).toBe('headers_too_large')
    expectNoStackTrace(reply.text)
    await expectHealthy()
  })

  it.each([
    { what: 'refused by Content-Length (413)', path: users, size: 1_100_000 },
    { what: 'sent to an unknown path (404)', path: '/nothing/here', size: 300_000 },
  ])('a keep-alive connection still works after a body $what', async ({ path, size }) => {
    const body = Buffer.from(JSON.stringify({ padding: 'x'.repeat(size) }))
    const host = new URL(base).host
    const first = Buffer.from(`POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`)
    const second = Buffer.from(`GET /__mock/health HTTP/1.1\r\nHost: ${host}\r\n\r\n`)
    const replies = await rawExchange(base, Buffer.concat([first, body, second]), 2)
    expect(replies.map((reply) => reply.status)).toEqual([path === users ? 413 : 404, 200])
    expect(JSON.parse(replies[1]!.body).status).toBe('ok')
  })

  it('the server still answers after all of the above', async () => {
    await expectHealthy()
    expect((await call('/core/users?limit=1')).status).toBe(200)
  })
})

describe('control API over HTTP (D26)', () => {
  beforeEach(async () => {
    expect((await call('/__mock/scenarios/default', { method: 'POST' })).status).toBe(200)
  })

  it('GET /__mock/health reports status, seed, scenario, clock and areas', async () => {
    const reply = await call('/__mock/health')
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      status: 'ok',
      seed: 1,
      scenario: 'default',
      clock: { now: '2026-01-01T00:00:00.000Z', fixed: true },
      areas: ALL_AREAS.map(({ id, letter, title, prefix }) => ({ id, letter, title, baseUrls: [prefix] })),
    })
  })

  it('GET /__mock/scenarios lists the built-ins and marks the active one', async () => {
    const reply = await call('/__mock/scenarios')
    expect(reply.status).toBe(200)
    expect(reply.body.map((entry: any) => entry.name)).toEqual(['default', 'empty', 'pending-users', 'entangled-pairs'])
    expect(reply.body.filter((entry: any) => entry.active).map((entry: any) => entry.name)).toEqual(['default'])
    for (const entry of reply.body) expect(entry.description.length).toBeGreaterThan(10)
  })

  it('POST /__mock/scenarios/empty empties the world', async () => {
    expect(Number((await call('/admin/api/v1.2/users')).headers.get('x-total-count'))).toBeGreaterThan(0)
    const loaded = await call('/__mock/scenarios/empty', { method: 'POST' })
    expect(loaded.status).toBe(200)
    expect(loaded.body).toMatchObject({ scenario: 'empty' })
    const users = await call('/admin/api/v1.2/users')
    expect(users.status).toBe(200)
    expect(users.body).toEqual([])
    expect(users.headers.get('x-total-count')).toBe('0')
    expect((await call('/core/users')).headers.get('x-total-count')).toBe('0')
    expect((await call('/__mock/health')).body.scenario).toBe('empty')
    const active = (await call('/__mock/scenarios')).body.find((entry: any) => entry.active)
    expect(active.name).toBe('empty')
  })

  it('after loading the empty scenario no user or product of the previous scenario is readable by id or keeps its username taken', async () => {
    const users = (await call('/admin/api/v1.2/users?limit=100')).body as Array<{ id: string; username: string }>
    const products = (await call('/__mock/state')).body.core.products as Array<{ id: string }>
    expect(users.length).toBeGreaterThan(40)
    expect(products.length).toBeGreaterThan(10)
    expect((await call('/__mock/scenarios/empty', { method: 'POST' })).status).toBe(200)

    const readableUsers: string[] = []
    for (const user of users) {
      if ((await call(`/admin/api/v1.2/users/${user.id}`)).status !== 404) readableUsers.push(user.id)
    }
    const readableProducts: string[] = []
    for (const product of products) {
      if ((await call(`/core/products/${product.id}`)).status !== 404) readableProducts.push(product.id)
    }
    expect(readableUsers, 'users of the previous scenario still readable by id').toEqual([])
    expect(readableProducts, 'products of the previous scenario still readable by id').toEqual([])
    // Their usernames are free again.
    const reused = await call('/core/users', {
      method: 'POST',
      json: { username: users[1]!.username, email: 'reused@example.com', password: 'Passw0rd!!' },
    })
    expect(reused.status, reused.text).toBe(201)
  })

  it('POST /__mock/scenarios/pending-users loads only pending users', async () => {
    expect((await call('/__mock/scenarios/pending-users', { method: 'POST' })).status).toBe(200)
    const users = await call('/admin/api/v1.2/users?limit=100')
    expect(users.body.length).toBe(13)
    expect(new Set(users.body.map((user: any) => user.status))).toEqual(new Set(['pending']))
    expect(users.body.map((user: any) => user.username)).toContain('new.hire')
  })

  it('an unknown scenario name is 404 listing the available ones, and changes nothing', async () => {
    const before = (await call('/admin/api/v1.2/users?limit=100')).text
    const reply = await call('/__mock/scenarios/no-such-thing', { method: 'POST' })
    expect(reply.status).toBe(404)
    expect(reply.body.error).toBe('not_found')
    expect(reply.body.message).toContain('no-such-thing')
    expect(reply.body.available).toEqual(['default', 'empty', 'pending-users', 'entangled-pairs'])
    expect((await call('/admin/api/v1.2/users?limit=100')).text).toBe(before)
    expect((await call('/__mock/health')).body.scenario).toBe('default')
  })

  it('POST /__mock/reset returns to the loaded scenario', async () => {
    const before = await call('/admin/api/v1.2/users?limit=100')
    const created = await call('/admin/api/v1.2/users', {
      method: 'POST',
      json: { username: 'temp.user', email: 'temp@example.com', password: 'Passw0rd!!' },
    })
    expect(created.status).toBe(201)
    const victim = before.body[0].id
    expect((await call(`/admin/api/v1.2/users/${victim}`, { method: 'DELETE' })).status).toBe(204)

    const reset = await call('/__mock/reset', { method: 'POST' })
    expect(reset.status).toBe(200)
    expect((await call(`/admin/api/v1.2/users/${created.body.id}`)).status).toBe(404)
    expect((await call(`/admin/api/v1.2/users/${victim}`)).status).toBe(200)
    const after = await call('/admin/api/v1.2/users?limit=100')
    expect(after.text).toBe(before.text)
    expect(after.headers.get('x-total-count')).toBe(before.headers.get('x-total-count'))
  })

  it('reset after loading a scenario returns to that scenario, not the start-up one', async () => {
    expect((await call('/__mock/scenarios/empty', { method: 'POST' })).status).toBe(200)
    await call('/core/users', { method: 'POST', json: { username: 'solo.user', email: 'solo@example.com', password: 'Passw0rd!!' } })
    expect((await call('/core/users')).headers.get('x-total-count')).toBe('1')
    expect((await call('/__mock/reset', { method: 'POST' })).status).toBe(200)
    expect((await call('/core/users')).headers.get('x-total-count')).toBe('0')
  })

  it('GET /__mock/state never contains a password or password hash', async () => {
    // A user created with a password over HTTP is in the state too.
    await call('/admin/api/v1.2/users', {
      method: 'POST',
      json: { username: 'secret.keeper', email: 'secret@example.com', password: 'Sup3rSecret!' },
    })
    const reply = await call('/__mock/state')
    expect(reply.status).toBe(200)
    expect(reply.body.accounts.users.length).toBeGreaterThan(40)
    expect(reply.text).not.toMatch(/password/i)
    expect(reply.text).not.toContain('Sup3rSecret!')
    expect(reply.text).not.toContain('pbkdf2')
    expect(reply.text).toContain('secret.keeper')
  })

  it('PUT /__mock/state with the document GET returned round-trips', async () => {
    const before = await call('/__mock/state')
    expect(before.status).toBe(200)
    const put = await call('/__mock/state', { method: 'PUT', body: before.text, headers: { 'content-type': 'application/json' } })
    expect(put.body).toMatchObject({ status: 'replaced' })
    expect(put.status).toBe(200)
    const after = await call('/__mock/state')
    expect(after.body).toEqual(before.body)
  })

  it('PUT /__mock/state replaces the world (a changed document is what the areas then serve)', async () => {
    const state = (await call('/__mock/state')).body
    state.accounts.users = state.accounts.users.slice(0, 2)
    state.accounts.users[0].email = 'changed@example.com'
    const put = await call('/__mock/state', { method: 'PUT', json: state })
    expect(put.status, put.text).toBe(200)
    const users = await call('/admin/api/v1.2/users')
    expect(users.headers.get('x-total-count')).toBe('2')
    expect(users.body.map((user: any) => user.email)).toContain('changed@example.com')
  })

  it('an invalid PUT /__mock/state is 400 validation_failed with details and changes nothing', async () => {
    const before = await call('/__mock/state')
    const broken = structuredClone(before.body)
    broken.accounts.users[0].email = 'not-an-email'
    broken.accounts.users = broken.accounts.users.slice(0, 3)
    const reply = await call('/__mock/state', { method: 'PUT', json: broken })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe('validation_failed')
    expect(reply.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'accounts.users.0.email', message: expect.any(String) })]))
    const after = await call('/__mock/state')
    expect(after.text).toBe(before.text)
    expect((await call('/admin/api/v1.2/users')).headers.get('x-total-count')).toBe(String(before.body.accounts.users.length))
  })

  it('PUT /__mock/state with a non-object or non-JSON body is refused and changes nothing', async () => {
    const before = (await call('/__mock/state')).text
    const array = await call('/__mock/state', { method: 'PUT', json: [] })
    expect(array.status).toBe(400)
    expect(array.body.error).toBe('validation_failed')
    const garbage = await call('/__mock/state', { method: 'PUT', body: '{nope', headers: { 'content-type': 'application/json' } })
    expect(garbage.status).toBe(400)
    expect(garbage.body.error).toBe('invalid_json')
    expect((await call('/__mock/state')).text).toBe(before)
  })
})
