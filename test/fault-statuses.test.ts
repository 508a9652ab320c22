/**
 * Fault rules answer any status from 400 to 599 with the area's error body
 * (D9), over the real CLI: rules from `--fault`, from `PUT /__mock/faults`
 * and a `Prefer: code=` header; a status outside the range is refused.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type CliServer, runCli, startCli } from './support/cli-server.js'
import { call } from './support/http.js'
import { warmDocument } from './support/warm-document.js'

const USERS = '/admin/api/v1.2/users'
const ada = { username: 'ada', email: 'ada@example.com', password: 'Passw0rd!' }

describe('fault statuses over HTTP', () => {
  let server: CliServer
  const url = (path: string) => `${server.url}${path}`
  const users = async () => (await call(url('/__mock/state'))).body.accounts.users.map((user: { username: string }) => user.username)

  beforeAll(async () => {
    server = await startCli(['--quiet', '--clock', '2026-01-01T00:00:00Z', '--fault', `GET ${USERS}/{userId} 404`])
    await warmDocument(server.url)
  }, 60_000)
  afterAll(() => server.stop())
  beforeEach(async () => {
    await call(url('/__mock/reset'), { method: 'POST' })
  })

  it('a 404 from --fault answers {error: not_found, message} in place of a user that exists', async () => {
    const listed = await call(url(`${USERS}?limit=1`))
    const id = listed.body[0].id
    const reply = await call(url(`${USERS}/${id}`))
    expect(reply.status).toBe(404)
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/)
    expect(reply.body).toEqual({ error: 'not_found', message: 'Nothing was found here (injected fault).' })
    expect(reply.headers.get('retry-after')).toBeNull()
    const [entry] = (await call(url(`/__mock/requests?method=GET&path=${USERS}/${id}`))).body.entries
    expect(entry).toMatchObject({ status: 404, fault: 'rule 1: 404' })
  })

  it('a 409 set over the control API answers {error: conflict, message}, and the user is not created', async () => {
    const set = await call(url('/__mock/faults'), { method: 'PUT', json: { rules: [{ method: 'POST', route: USERS, status: 409, times: 1 }] } })
    expect(set.status).toBe(200)
    const refused = await call(url(USERS), { method: 'POST', json: ada })
    expect(refused.status).toBe(409)
    expect(refused.body).toEqual({ error: 'conflict', message: 'The request conflicts with the current state (injected fault).' })
    expect(await users()).not.toContain('ada')
    // times: 1, so the retry runs the route.
    expect((await call(url(USERS), { method: 'POST', json: ada })).status).toBe(201)
    expect(await users()).toContain('ada')
  })

  it('a 401 carries the Bearer challenge; 403 is forbidden; only 429 and 503 carry Retry-After', async () => {
    await call(url('/__mock/faults'), { method: 'PUT', json: { rules: [{ area: 'core', status: 401 }] } })
    const unauthorized = await call(url('/core/products/prod-1001'))
    expect(unauthorized.status).toBe(401)
    expect(unauthorized.body.error).toBe('unauthorized')
    expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer realm="core"')

    await call(url('/__mock/faults'), { method: 'PUT', json: { rules: [{ area: 'core', status: 403 }] } })
    const forbidden = await call(url('/core/products/prod-1001'))
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toEqual({ error: 'forbidden', message: 'Access to this resource is forbidden (injected fault).' })
    expect(forbidden.headers.get('retry-after')).toBeNull()

    await call(url('/__mock/faults'), { method: 'PUT', json: { rules: [{ area: 'core', status: 503, retryAfter: 4 }] } })
    const unavailable = await call(url('/core/products/prod-1001'))
    expect(unavailable.headers.get('retry-after')).toBe('4')
    expect(unavailable.body).toMatchObject({ error: 'service_unavailable', retry_after: 4 })
  })

  it("a 405 carries Allow with the methods of the path, as the router's own 405 does", async () => {
    const own = await call(url('/core/products/prod-1001'), { method: 'DELETE' })
    expect(own.status).toBe(405)
    await call(url('/__mock/faults'), { method: 'PUT', json: { rules: [{ area: 'core', status: 405 }] } })
    const injected = await call(url('/core/products/prod-1001'))
    expect(injected.status).toBe(405)
    expect(injected.headers.get('allow')).toBe(own.headers.get('allow'))
    expect(injected.body).toMatchObject({ error: 'method_not_allowed', allowed: own.body.allowed })
  })

  it('Prefer: code=409 answers one request with the 409 body', async () => {
    const reply = await call(url('/core/products/prod-1001'), { headers: { prefer: 'code=409' } })
    expect(reply.status).toBe(409)
    expect(reply.headers.get('preference-applied')).toBe('code=409')
    expect(reply.body.error).toBe('conflict')
    expect((await call(url('/core/products/prod-1001'))).status).toBe(200)
  })

  it('refuses a status outside 400-599 with a 400 naming the range, and keeps the rules', async () => {
    for (const status of [302, 600, 404.5]) {
      const refused = await call(url('/__mock/faults'), { method: 'POST', json: { status } })
      expect(refused.status).toBe(400)
      expect(refused.body.details).toEqual([{ path: 'status', message: 'must be an HTTP error status from 400 to 599' }])
    }
    expect((await call(url('/__mock/faults'))).body.rules).toEqual([{ method: 'GET', route: `${USERS}/{userId}`, status: 404, fired: 0 }])
  })
})

describe('--fault with a status outside 400-599', () => {
  it('is refused at start-up in one line naming the range', async () => {
    const { code, stdout, stderr } = await runCli(['serve', '--port', '0', '--fault', 'GET /core/** 399'])
    expect(code).not.toBe(0)
    expect(stdout).not.toContain('listening on')
    expect(stderr.split('\n')[0]).toMatch(/--fault.*0\.status: must be an HTTP error status from 400 to 599/)
  })
})
