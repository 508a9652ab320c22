import { afterEach, describe, expect, it } from 'vitest'
import { call, useDefaultWorld } from '../support/http.js'

/**
 * The control plane for test runs (issue 10): request journal, faults and
 * isolated worlds, written once and run in-process (src/simulator/control/control.test.ts)
 * and against the real CLI server (test/control-http.test.ts). The world must
 * be the `default` scenario, seed 1, clock 2026-01-01T00:00:00Z, with the
 * default journal size and world limit.
 */
export function describeControlContract(base: () => string): void {
  const url = (path: string) => `${base()}${path}`
  const users = '/admin/api/v1.2/users'
  const newUser = (name: string) => ({ username: name, email: `${name}@example.com`, password: 'correct-horse' })
  const journal = async (query = '', world?: string) => {
    const reply = await call(url(`/__mock/requests${query}`), world ? { headers: { 'x-mock-world': world } } : {})
    expect(reply.status, reply.text).toBe(200)
    return reply.body.entries as Array<Record<string, any>>
  }
  const setFaults = async (rules: unknown[], world?: string) => {
    const reply = await call(url('/__mock/faults'), { method: 'PUT', json: { rules }, headers: world ? { 'x-mock-world': world } : {} })
    expect(reply.status, reply.text).toBe(200)
  }
  const userCount = async (headers: Record<string, string> = {}) => Number((await call(url(`${users}?limit=1`), { headers })).headers.get('x-total-count'))
  const elapsed = async (run: () => Promise<unknown>) => {
    const started = performance.now()
    await run()
    return performance.now() - started
  }

  describe('control plane', () => {
    useDefaultWorld(base)
    afterEach(async () => {
      for (const world of (await call(url('/__mock/worlds'))).body.worlds) await call(url(`/__mock/worlds/${world.id}`), { method: 'DELETE' })
    })

    describe('request journal (GET/DELETE /__mock/requests)', () => {
      it('records each answered area request, oldest first, and not the control API calls', async () => {
        const created = await call(url(users), { method: 'POST', json: newUser('journaled') })
        await call(url(`${users}?limit=2`))
        await call(url(`${users}/no-such-user`))
        await call(url('/core/products/prod-1001'), { method: 'PUT', json: { price: 12.5 } })
        await call(url('/__mock/health'))
        const entries = await journal()
        expect(entries.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
          `POST ${users} 201`,
          `GET ${users} 200`,
          `GET ${users}/no-such-user 404`,
          'PUT /core/products/prod-1001 200',
        ])
        expect(entries[0]).toMatchObject({
          id: 1,
          time: '2026-01-01T00:00:00.000Z',
          area: 'admin',
          route: users,
          world: null,
          fault: null,
          requestBody: { username: 'journaled', email: 'journaled@example.com', password: '[redacted]' },
          responseBody: created.body,
        })
        expect(entries[0]!.durationMs).toEqual(expect.any(Number))
        expect(entries[1]!.url).toMatch(/\/admin\/api\/v1\.2\/users\?limit=2$/)
        expect(entries[1]!.requestBody).toBeNull()
        expect(entries[2]).toMatchObject({ route: `${users}/{userId}`, responseBody: { error: 'not_found' } })
        expect(entries[3]).toMatchObject({ area: 'core', route: '/core/products/{id}', requestBody: { price: 12.5 } })
      })

      it('filters by area, method, path or route, status or class, since, and keeps the last `limit`', async () => {
        await call(url(users), { method: 'POST', json: newUser('filtered') })
        await call(url(`${users}/ghost`))
        await call(url('/core/products/prod-1001'))
        await call(url('/__mock/clock'), { method: 'POST', json: { advance: '1h' } })
        await call(url('/core/products/prod-1002'))
        const paths = (entries: Array<Record<string, any>>) => entries.map((entry) => entry.path)
        expect(paths(await journal('?area=core'))).toEqual(['/core/products/prod-1001', '/core/products/prod-1002'])
        expect(paths(await journal('?method=post'))).toEqual([users])
        expect(paths(await journal(`?path=${encodeURIComponent('/api/v1.2/users/{id}')}`))).toEqual([`${users}/ghost`])
        expect(paths(await journal(`?path=${encodeURIComponent('/core/products/*')}`))).toHaveLength(2)
        expect(paths(await journal(`?path=${users}`))).toEqual([users])
        expect(paths(await journal('?status=404'))).toEqual([`${users}/ghost`])
        expect(await journal('?status=2xx')).toHaveLength(3)
        expect(paths(await journal('?since=2026-01-01T00:30:00Z'))).toEqual(['/core/products/prod-1002'])
        expect(paths(await journal('?limit=2&area=core'))).toEqual(['/core/products/prod-1001', '/core/products/prod-1002'])
        expect(paths(await journal('?limit=1'))).toEqual(['/core/products/prod-1002'])
      })

      it('redacts passwords, tokens, signatures and secrets at any depth, in headers, query and bodies', async () => {
        const secretBody = { price: 10, meta: { token: 'tok-123', nested: [{ client_secret: 's3cr3t', signature: '0xabc', token_id: 'kept' }] } }
        await call(url('/core/products/prod-1001?access_token=abc123'), {
          method: 'PUT',
          json: secretBody,
          headers: { authorization: 'Bearer eyJhbGciOi.secret.part', 'x-api-key': 'key-1' },
        })
        await call(url(users), { method: 'POST', body: '{"username":"x","password":"hunter22",', headers: { 'content-type': 'application/json' } })
        const [put, broken] = await journal()
        expect(put!.requestBody).toEqual({ price: 10, meta: { token: '[redacted]', nested: [{ client_secret: '[redacted]', signature: '[redacted]', token_id: 'kept' }] } })
        expect(put!.requestHeaders).toMatchObject({ authorization: 'Bearer [redacted]', 'x-api-key': '[redacted]' })
        expect(put!.url).not.toContain('abc123')
        expect(broken!.status).toBe(400)
        expect(broken!.requestBody).toBe('{"username":"x","password":"[redacted]",')
        const everything = JSON.stringify(await journal())
        for (const secret of ['tok-123', 's3cr3t', '0xabc', 'eyJhbGciOi', 'key-1', 'abc123', 'hunter22']) expect(everything).not.toContain(secret)
      })

      it('is emptied by DELETE and by reset; a bad filter is 400 and changes nothing', async () => {
        await call(url('/core/products/prod-1001'))
        const bad = await call(url('/__mock/requests?status=abc&since=yesterday&limit=0'))
        expect(bad.status).toBe(400)
        expect(bad.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['query.limit', 'query.since', 'query.status'])
        expect(await journal()).toHaveLength(1)
        expect((await call(url('/__mock/requests'), { method: 'DELETE' })).status).toBe(204)
        expect(await journal()).toEqual([])
        await call(url('/core/products/prod-1001'))
        await call(url('/__mock/reset'), { method: 'POST' })
        expect(await journal()).toEqual([])
      })
    })

    describe('faults (GET/PUT/POST/DELETE /__mock/faults)', () => {
      it('answers 503 with Retry-After and the D9 body instead of the route, and writes nothing', async () => {
        await setFaults([{ method: 'POST', route: '/core/users', status: 503, retryAfter: 5 }])
        const before = await userCount()
        const reply = await call(url('/core/users'), { method: 'POST', json: newUser('never.written') })
        expect(reply.status).toBe(503)
        expect(reply.headers.get('retry-after')).toBe('5')
        expect(reply.body).toMatchObject({ error: 'service_unavailable', message: expect.any(String), retry_after: 5 })
        expect(await userCount()).toBe(before)
        const [entry] = await journal('?method=POST')
        expect(entry).toMatchObject({ status: 503, fault: 'rule 1: 503' })
        // Only POST /core/users is hit: Area A's creation still works, and the name was never taken.
        expect((await call(url(users), { method: 'POST', json: newUser('never.written') })).status).toBe(201)
      })

      it('answers 429 with Retry-After, and 500, 502, 504 with their D9 codes', async () => {
        const codes: Record<number, string> = { 429: 'too_many_requests', 500: 'internal_error', 502: 'bad_gateway', 504: 'gateway_timeout' }
        for (const [status, code] of Object.entries(codes)) {
          await setFaults([{ area: 'core', status: Number(status) }])
          const reply = await call(url('/core/products/prod-1001'))
          expect(reply.status).toBe(Number(status))
          expect(reply.body.error).toBe(code)
          expect(reply.headers.get('retry-after')).toBe(status === '429' ? '1' : null)
        }
        await setFaults([{ area: 'core', status: 503 }])
        expect((await call(url(`${users}?limit=1`))).status).toBe(200)
      })

      it('drops the connection: the client gets a network error, and nothing is written', async () => {
        await setFaults([{ method: 'POST', route: users, drop: true }])
        const before = await userCount()
        await expect(fetch(url(users), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(newUser('dropped')) })).rejects.toThrow(TypeError)
        expect(await userCount()).toBe(before)
        expect((await call(url('/__mock/health'))).status).toBe(200)
        expect(await journal('?method=POST')).toMatchObject([{ status: 0, fault: 'rule 1: drop' }])
      })

      it('delays by a fixed latency or one drawn from a range, then runs the route', async () => {
        await setFaults([
          { route: '/core/products/{id}', latency: 150 },
          { route: '/core/users', latency: [100, 120] },
        ])
        expect(await elapsed(async () => expect((await call(url('/core/products/prod-1001'))).status).toBe(200))).toBeGreaterThanOrEqual(140)
        expect(await elapsed(() => call(url('/core/users')))).toBeGreaterThanOrEqual(90)
        expect(await elapsed(() => call(url('/core/products')))).toBeLessThan(5000)
        const [product, list] = await journal()
        expect(product).toMatchObject({ status: 200, fault: 'rule 1: 150ms' })
        expect(list!.fault).toMatch(/^rule 2: 1(0\d|1\d|20)ms$/)
      })

      it('fires at most `times` times, counting in GET /__mock/faults', async () => {
        await setFaults([{ route: '/core/products/*', status: 500, times: 2 }])
        const statuses = []
        for (let i = 0; i < 4; i++) statuses.push((await call(url('/core/products/prod-1001'))).status)
        expect(statuses).toEqual([500, 500, 200, 200])
        expect((await call(url('/__mock/faults'))).body.rules).toEqual([{ route: '/core/products/*', status: 500, times: 2, fired: 2 }])
      })

      it('honours Prefer: code=… and delay=… on one request only, saying so in Preference-Applied', async () => {
        const failed = await call(url('/core/products/prod-1001'), { headers: { prefer: 'code=503' } })
        expect(failed.status).toBe(503)
        expect(failed.headers.get('retry-after')).toBe('1')
        expect(failed.headers.get('preference-applied')).toBe('code=503')
        expect((await call(url('/core/products/prod-1001'))).status).toBe(200)
        let slow: Awaited<ReturnType<typeof call>> | undefined
        expect(await elapsed(async () => (slow = await call(url('/core/products/prod-1001'), { headers: { prefer: 'delay=150' } })))).toBeGreaterThanOrEqual(140)
        expect(slow!.status).toBe(200)
        expect(slow!.headers.get('preference-applied')).toBe('delay=150')
        // Writes are skipped too, and the control API ignores Prefer.
        const before = await userCount()
        expect((await call(url(users), { method: 'POST', json: newUser('preferred'), headers: { prefer: 'code=500' } })).status).toBe(500)
        expect(await userCount()).toBe(before)
        expect((await call(url('/__mock/health'), { headers: { prefer: 'code=503' } })).status).toBe(200)
      })

      it('fails the same requests the same way for the same seed (two worlds of seed 7)', async () => {
        const pattern = async (world: string) => {
          await setFaults([{ route: '/core/products/{productId}', status: 503, probability: 0.5 }], world)
          const statuses: number[] = []
          for (let i = 0; i < 24; i++) statuses.push((await call(url('/core/products/prod-1001'), { headers: { 'x-mock-world': world } })).status)
          return statuses
        }
        const one = (await call(url('/__mock/worlds'), { method: 'POST', json: { seed: 7 } })).body.id
        const two = (await call(url('/__mock/worlds'), { method: 'POST', json: { seed: 7 } })).body.id
        const first = await pattern(one)
        expect(first).toContain(503)
        expect(first).toContain(200)
        expect(await pattern(two)).toEqual(first)
        // Fault draws have their own generator: ids of created users do not depend on them.
        const created = await Promise.all(
          [one, two].map(async (world) => (await call(url(users), { method: 'POST', json: newUser('same.id'), headers: { 'x-mock-world': world } })).body.id),
        )
        expect(created[0]).toBe(created[1])
      })

      it('adds with POST, clears with DELETE, goes back to none on reset, refuses bad rules with 400 and changes nothing', async () => {
        expect((await call(url('/__mock/faults'), { method: 'POST', json: { route: '/core/users', status: 502 } })).status).toBe(201)
        const added = await call(url('/__mock/faults'), { method: 'POST', json: { latency: [1, 2] } })
        expect(added.body.rules).toHaveLength(2)
        const bad = await call(url('/__mock/faults'), { method: 'PUT', json: { rules: [{ status: 302 }, { route: 'no-slash', latency: -1 }, {}] } })
        expect(bad.status).toBe(400)
        expect(bad.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['rules.0.status', 'rules.1.latency', 'rules.1.route', 'rules.2'])
        expect((await call(url('/__mock/faults'))).body.rules).toHaveLength(2)
        await call(url('/__mock/reset'), { method: 'POST' })
        expect((await call(url('/__mock/faults'))).body.rules).toEqual([])
        await setFaults([{ status: 503 }])
        expect((await call(url('/__mock/faults'), { method: 'DELETE' })).status).toBe(204)
        expect((await call(url('/core/users'))).status).toBe(200)
      })
    })

    describe('isolated worlds (/__mock/worlds, x-mock-world)', () => {
      it('creates a world (201, Location) that requests with x-mock-world see, and lists and deletes it', async () => {
        const created = await call(url('/__mock/worlds'), { method: 'POST', json: { scenario: 'empty' } })
        expect(created.status).toBe(201)
        const id = created.body.id
        expect(created.body).toMatchObject({ id: expect.any(String), scenario: 'empty', seed: 1 })
        expect(created.headers.get('location')).toBe(`/__mock/worlds/${id}`)
        expect(await userCount({ 'x-mock-world': id })).toBe(0)
        expect(await userCount()).toBe(48)
        expect((await call(url('/__mock/worlds'))).body.worlds.map((world: { id: string }) => world.id)).toEqual([id])
        expect((await call(url(`/__mock/worlds/${id}`))).body.id).toBe(id)
        expect((await call(url(`/__mock/worlds/${id}`), { method: 'DELETE' })).status).toBe(204)
        const gone = await call(url(users), { headers: { 'x-mock-world': id } })
        expect(gone.status).toBe(404)
        expect(gone.body).toMatchObject({ error: 'not_found', world: id })
      })

      it('keeps 8 concurrent clients apart: each sees only its own writes, the default world none', async () => {
        const [victim] = (await call(url(`${users}?limit=1`))).body
        const client = async (index: number) => {
          const created = await call(url('/__mock/worlds'), { method: 'POST', json: {} })
          expect(created.status, created.text).toBe(201)
          const headers = { 'x-mock-world': created.body.id }
          const user = (await call(url(users), { method: 'POST', json: newUser(`client.${index}`), headers })).body
          const updated = await call(url(`${users}/${user.id}`), { method: 'PUT', json: { email: `client.${index}@changed.example.com`, status: 'active' }, headers })
          expect(updated.status).toBe(200)
          expect((await call(url(`${users}/${victim.id}`), { method: 'DELETE', headers })).status).toBe(204)
          return { world: created.body.id as string, user }
        }
        const results = await Promise.all(Array.from({ length: 8 }, (_, index) => client(index)))
        expect(new Set(results.map((result) => result.world)).size).toBe(8)
        for (const [index, { world }] of results.entries()) {
          const headers = { 'x-mock-world': world }
          const listed = (await call(url(`${users}?limit=100`), { headers })).body as Array<{ username: string; id: string }>
          expect(listed.filter((user) => user.username.startsWith('client.')).map((user) => user.username)).toEqual([`client.${index}`])
          expect(listed.some((user) => user.id === victim.id)).toBe(false)
          expect(listed).toHaveLength(48)
          const mine = listed.find((user) => user.username === `client.${index}`)!
          expect((await call(url(`${users}/${mine.id}`), { headers })).body).toMatchObject({ email: `client.${index}@changed.example.com`, status: 'active' })
          expect((await journal('', world)).map((entry) => entry.world)).toEqual([world, world, world, world, world])
        }
        const untouched = (await call(url(`${users}?limit=100`))).body as Array<{ username: string }>
        expect(untouched).toHaveLength(48)
        expect(untouched.some((user) => user.username.startsWith('client.'))).toBe(false)
        expect((await call(url(`${users}/${victim.id}`))).status).toBe(200)
      })

      it('gives each world its own control API: state, reset, clock, journal, faults', async () => {
        const id = (await call(url('/__mock/worlds'), { method: 'POST', json: { clock: '2030-01-01T00:00:00Z' } })).body.id
        const headers = { 'x-mock-world': id }
        await call(url(users), { method: 'POST', json: newUser('world.only'), headers })
        expect((await call(url('/__mock/state'), { headers })).body.accounts.users).toHaveLength(49)
        expect((await call(url('/__mock/clock'), { headers })).body.now).toBe('2030-01-01T00:00:00.000Z')
        expect((await call(url('/__mock/clock'))).body.now).toBe('2026-01-01T00:00:00.000Z')
        await setFaults([{ status: 503 }], id)
        expect((await call(url('/core/users'), { headers })).status).toBe(503)
        expect((await call(url('/core/users'))).status).toBe(200)
        expect((await call(url('/__mock/reset'), { method: 'POST', headers })).status).toBe(200)
        expect(await journal('', id)).toEqual([])
        expect(await userCount(headers)).toBe(48)
        expect((await call(url('/core/users'), { headers })).status).toBe(200)
      })

      it('takes the world from the mock-world cookie, which POST sets when asked', async () => {
        const created = await call(url('/__mock/worlds'), { method: 'POST', json: { scenario: 'pending-users', cookie: true } })
        const cookie = created.headers.get('set-cookie')!
        expect(cookie).toMatch(new RegExp(`^mock-world=${created.body.id}; Path=/`))
        const headers = { cookie: `theme=dark; ${cookie.split(';')[0]}` }
        expect(await userCount(headers)).toBe(13)
        const deleted = await call(url(`/__mock/worlds/${created.body.id}`), { method: 'DELETE', headers })
        expect(deleted.headers.get('set-cookie')).toMatch(/^mock-world=; .*Max-Age=0/)
        // A stale cookie still reaches the world routes, so a new world can be made.
        expect((await call(url(users), { headers })).status).toBe(404)
        expect((await call(url('/__mock/worlds'), { method: 'POST', json: {}, headers })).status).toBe(201)
      })

      it('takes an id of your own, refuses a taken one (409) and bad input (400), and 404s unknown ones', async () => {
        expect((await call(url('/__mock/worlds'), { method: 'POST', json: { id: 'worker-1' } })).body.id).toBe('worker-1')
        expect((await call(url('/__mock/worlds'), { method: 'POST', json: { id: 'worker-1' } })).status).toBe(409)
        expect((await call(url('/__mock/worlds'), { method: 'POST', json: { id: 'default' } })).status).toBe(400)
        const bad = await call(url('/__mock/worlds'), { method: 'POST', json: { seed: 'x', clock: 'soon', id: 'a b' } })
        expect(bad.status).toBe(400)
        expect(bad.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['clock', 'id', 'seed'])
        const unknownScenario = await call(url('/__mock/worlds'), { method: 'POST', json: { scenario: 'nope' } })
        expect(unknownScenario.status).toBe(400)
        expect(unknownScenario.body.details).toEqual([{ path: 'scenario', message: expect.stringContaining('Unknown scenario "nope"') }])
        const badScenario = await call(url('/__mock/worlds'), { method: 'POST', json: { scenario: { accounts: { users: [{ username: 'ok.name', email: 'nope' }] } } } })
        expect(badScenario.body.details).toEqual([{ path: 'scenario.accounts.users.0.email', message: expect.any(String) }])
        expect((await call(url('/__mock/worlds'))).body.worlds).toHaveLength(1)
        expect((await call(url('/__mock/worlds/nope'))).status).toBe(404)
        expect((await call(url('/__mock/worlds/nope'), { method: 'DELETE' })).status).toBe(404)
        expect((await call(url('/__mock/health'), { headers: { 'x-mock-world': 'nope' } })).status).toBe(404)
        expect((await call(url(users), { headers: { 'x-mock-world': 'default' } })).status).toBe(200)
      })
    })
  })
}
