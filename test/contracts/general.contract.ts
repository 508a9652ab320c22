import { base64url, decodeJwt, decodeProtectedHeader, generateKeyPair, jwtVerify, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { derivedSecret } from '../../src/areas/general/index.js'
import { call, type Reply, useDefaultWorld } from '../support/http.js'

type StateUser = { id: string; username: string; status: string; last_login: string | null }
type StateResource = { id: number; data: Record<string, unknown>; created_at: string; updated_at: string }
type StateNotification = { id: string; recipients: number[]; message: string; priority: string; status: string; queued_at: string; delivered_at: string | null }

/**
 * Area D behaviour, run in-process and over HTTP (see admin.contract.ts).
 * The world must be the `default` scenario, seed 1, clock fixed. Seeded values
 * (usernames, resources, ids) are read from the state API, never assumed: the
 * shared random stream depends on which areas load before this one.
 */
export function describeGeneralContract(base: () => string): void {
  const general = (path: string) => `${base()}/general${path}`
  const admin = (path: string) => `${base()}/admin/api/v1.2${path}`
  const state = async () =>
    (await call(`${base()}/__mock/state`)).body as { seed: number; accounts: { users: StateUser[] }; general: { resources: StateResource[]; notifications: StateNotification[] } }
  const now = async () => (await call(`${base()}/__mock/clock`)).body.now as string
  const moveClock = async (body: Record<string, unknown>) => expect((await call(`${base()}/__mock/clock`, { method: 'POST', json: body })).status).toBe(200)
  const someUser = async (status: string) => (await state()).accounts.users.find((user) => user.status === status)!
  const someResource = async (index = 0) => (await state()).general.resources[index]!
  const login = (username: string, password = 'Passw0rd!') => call(general('/auth/login'), { method: 'POST', json: { username, password } })
  const tokenFor = async (status = 'active') => {
    const user = await someUser(status)
    const reply = await login(user.username)
    expect(reply.status).toBe(200)
    return { user, token: reply.body.token as string }
  }
  const put = (id: number | string, body: unknown, authorization?: string) =>
    call(general(`/resources/${id}`), { method: 'PUT', json: body, headers: authorization === undefined ? {} : { authorization } })
  const read = async (id: number) => (await call(general(`/data/${id}`))).body
  const secret = async () => derivedSecret((await state()).seed)

  /** A 401 that D7 allows, with its RFC 6750 challenge. */
  const expect401 = (reply: Reply, error: 'unauthorized' | 'invalid_token' | 'token_expired') => {
    expect(reply.status).toBe(401)
    expect(reply.body).toMatchObject({ error, message: expect.any(String) })
    const challenge = reply.headers.get('www-authenticate')!
    expect(challenge).toMatch(/^Bearer realm="general"/)
    if (error === 'unauthorized') expect(challenge).toBe('Bearer realm="general"')
    else expect(challenge).toMatch(/, error="invalid_token", error_description="[^"\\]+"$/)
  }

  describe('Area D: general', () => {
    useDefaultWorld(base)

    describe('POST /auth/login', () => {
      it('logs in active and pending accounts with a real HS256 JWT signed with the seed-derived secret (D6, D7, D24)', async () => {
        const clock = await now()
        for (const status of ['active', 'pending']) {
          const user = await someUser(status)
          const reply = await login(user.username)
          expect(reply.status).toBe(200)
          expect(reply.body).toEqual({ token: expect.any(String), token_type: 'Bearer', expires_in: 3600 })
          expect(reply.headers.get('cache-control')).toBe('no-store')
          expect(decodeProtectedHeader(reply.body.token)).toEqual({ alg: 'HS256', typ: 'JWT' })
          const { payload } = await jwtVerify(reply.body.token, await secret(), { algorithms: ['HS256'], currentDate: new Date(clock) })
          const iat = Date.parse(clock) / 1000
          expect(payload).toEqual({ iss: 'multi-area-mock/general', sub: user.id, username: user.username, iat, exp: iat + 3600, jti: expect.any(String) })
        }
      })

      it('matches usernames case-insensitively, like their uniqueness (D5)', async () => {
        const user = await someUser('active')
        const reply = await login(user.username.toUpperCase())
        expect(reply.status).toBe(200)
        expect(decodeJwt(reply.body.token).sub).toBe(user.id)
      })

      it('sets last_login, visible in Area A (D6)', async () => {
        const user = await someUser('pending')
        expect((await call(admin(`/users/${user.id}`))).body.last_login).toBeNull()
        await moveClock({ advance: '90s' })
        expect((await login(user.username)).status).toBe(200)
        expect((await call(admin(`/users/${user.id}`))).body.last_login).toBe(await now())
      })

      it('answers a wrong password and an unknown username alike, and records nothing (D6)', async () => {
        const user = await someUser('active')
        const wrongPassword = await login(user.username, 'not-the-password')
        const unknownUser = await login('no.such.user', 'Passw0rd!')
        for (const reply of [wrongPassword, unknownUser]) {
          expect(reply.status).toBe(401)
          expect(reply.body).toEqual({ error: 'invalid_credentials', message: 'The username or password is incorrect.' })
        }
        expect(unknownUser.text).toBe(wrongPassword.text)
        expect((await call(admin(`/users/${user.id}`))).body.last_login).toBe(user.last_login)
      })

      it('refuses an inactive account with 403 account_inactive, but only given the right password (D6)', async () => {
        const user = await someUser('inactive')
        const reply = await login(user.username)
        expect(reply.status).toBe(403)
        expect(reply.body.error).toBe('account_inactive')
        expect((await login(user.username, 'not-the-password')).status).toBe(401)
        expect((await call(admin(`/users/${user.id}`))).body.last_login).toBe(user.last_login)
      })

      it('validates the body with every problem listed (D11)', async () => {
        const missing = await call(general('/auth/login'), { method: 'POST', json: {} })
        expect(missing.status).toBe(400)
        expect(missing.body.details).toEqual([
          { path: 'username', message: 'is required' },
          { path: 'password', message: 'is required' },
        ])
        const wrongTypes = await call(general('/auth/login'), { method: 'POST', json: { username: 1, password: '' } })
        expect(wrongTypes.body.details.map((detail: { path: string }) => detail.path)).toEqual(['username', 'password'])
        const broken = await call(general('/auth/login'), { method: 'POST', body: '{"username":', headers: { 'content-type': 'application/json' } })
        expect(broken.body.error).toBe('invalid_json')
        const form = await call(general('/auth/login'), { method: 'POST', body: 'username=a&password=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
        expect(form.status).toBe(415)
      })

      it('gives the same token again after a reset: same seed, scenario and requests (D24)', async () => {
        const user = await someUser('active')
        const first = (await login(user.username)).body.token
        const second = (await login(user.username)).body.token
        expect(second).not.toBe(first)
        expect(decodeJwt(second).jti).not.toBe(decodeJwt(first).jti)
        await call(`${base()}/__mock/reset`, { method: 'POST' })
        expect((await login(user.username)).body.token).toBe(first)
      })
    })

    describe('shared accounts across Areas A, B and D (D5)', () => {
      it('logs in accounts created in Area A and in Area B with their own passwords', async () => {
        const inA = await call(admin('/users'), { method: 'POST', json: { username: 'from.admin', email: 'from.admin@example.com', password: 'admin-pass-1' } })
        const inB = await call(`${base()}/core/users`, { method: 'POST', json: { username: 'from.core', email: 'from.core@example.com', password: 'core-pass-1' } })
        expect((await login('from.admin', 'Passw0rd!')).status).toBe(401)
        for (const [created, password] of [
          [inA, 'admin-pass-1'],
          [inB, 'core-pass-1'],
        ] as const) {
          const reply = await login(created.body.username, password)
          expect(reply.status).toBe(200)
          expect(decodeJwt(reply.body.token).sub).toBe(created.body.id)
          expect((await call(admin(`/users/${created.body.id}`))).body.last_login).toBe(await now())
        }
      })

      it('deactivating in Area A refuses the login (403) and the tokens already issued (401 invalid_token); reactivating accepts them again', async () => {
        const { user, token } = await tokenFor()
        const resource = await someResource()
        expect((await call(admin(`/users/${user.id}`), { method: 'PUT', json: { status: 'inactive' } })).status).toBe(200)
        expect((await login(user.username)).status).toBe(403)
        const refused = await put(resource.id, { data: { title: 'x' } }, `Bearer ${token}`)
        expect401(refused, 'invalid_token')
        expect((await someResource()).data).toEqual(resource.data)
        await call(admin(`/users/${user.id}`), { method: 'PUT', json: { status: 'active' } })
        expect((await put(resource.id, { data: { title: 'x' } }, `Bearer ${token}`)).status).toBe(200)
      })

      it('deleting in Area A refuses the tokens already issued (401 invalid_token) and the login (401)', async () => {
        const { user, token } = await tokenFor('pending')
        expect((await call(admin(`/users/${user.id}`), { method: 'DELETE' })).status).toBe(204)
        expect401(await put((await someResource()).id, { data: { title: 'x' } }, `Bearer ${token}`), 'invalid_token')
        expect((await login(user.username)).status).toBe(401)
      })
    })

    describe('GET /data/{resource_id}', () => {
      it('reads a seeded resource as id, its data, created_at and updated_at (D19)', async () => {
        const { resources } = (await state()).general
        expect(resources.length).toBe(40)
        for (const resource of resources.slice(0, 5)) {
          const reply = await call(general(`/data/${resource.id}`))
          expect(reply.status).toBe(200)
          expect(reply.body).toEqual({ id: resource.id, ...resource.data, created_at: resource.created_at, updated_at: resource.updated_at })
          expect(Object.keys(reply.body)[0]).toBe('id')
        }
      })

      it('seeds realistic, varied resources owned by seeded accounts', async () => {
        const { resources } = (await state()).general
        const { users } = (await state()).accounts
        const usernames = new Set(users.map((user) => user.username))
        expect(resources.map((resource) => resource.id)).toEqual(resources.map((_, index) => index + 1))
        expect(new Set(resources.map((resource) => resource.data.kind)).size).toBeGreaterThan(1)
        expect(new Set(resources.map((resource) => resource.data.title)).size).toBeGreaterThan(30)
        for (const { data, created_at, updated_at } of resources) {
          expect(data).toMatchObject({ title: expect.any(String), owner: expect.any(String), tags: expect.any(Array), metrics: { views: expect.any(Number) } })
          expect(usernames.has(data.owner as string)).toBe(true)
          expect(updated_at >= created_at).toBe(true)
        }
      })

      it('keeps only the named fields plus id; unknown and inherited names are ignored (D19)', async () => {
        const resource = await someResource(1)
        const picked = await call(general(`/data/${resource.id}?fields=title,owner`))
        expect(picked.status).toBe(200)
        expect(picked.body).toEqual({ id: resource.id, title: resource.data.title, owner: resource.data.owner })
        const messy = await call(general(`/data/${resource.id}?fields=%20owner%20,title,owner,nope,constructor,__proto__,toString,metrics,updated_at`))
        expect(messy.body).toEqual({ id: resource.id, owner: resource.data.owner, title: resource.data.title, metrics: resource.data.metrics, updated_at: resource.updated_at })
        expect((await call(general(`/data/${resource.id}?fields=id`))).body).toEqual({ id: resource.id })
        expect((await call(general(`/data/${resource.id}?fields=nothing.here`))).body).toEqual({ id: resource.id })
      })

      it('refuses a malformed fields list: empty names, more than 100 names', async () => {
        const { id } = await someResource()
        const names = (count: number) => Array.from({ length: count }, (_, index) => `f${index}`).join(',')
        for (const fields of ['', ',', 'title,,owner', 'title,', ' , title', names(101)]) {
          const reply = await call(general(`/data/${id}?fields=${fields}`))
          expect(reply.status, fields).toBe(400)
          expect(reply.body.details.map((detail: { path: string }) => detail.path)).toEqual(['query.fields'])
        }
        expect((await call(general(`/data/${id}?fields=${names(100)}`))).body).toEqual({ id })
      })

      it('answers a non-integer or non-positive id with 400 and an unknown one with 404', async () => {
        for (const id of ['abc', '1.5', '0', '-1', '1e3', '%20', '99999999999999999999']) {
          const reply = await call(general(`/data/${id}`))
          expect(reply.status, id).toBe(400)
          expect(reply.body.error).toBe('validation_failed')
        }
        const unknown = await call(general('/data/987654'))
        expect(unknown.status).toBe(404)
        expect(unknown.body).toMatchObject({ error: 'not_found', resource_id: 987654 })
        expect(unknown.body.message).toContain('987654')
      })
    })

    describe('PUT /resources/{id}', () => {
      it('replaces the data and answers {message, resource}; the data read shows it (D19)', async () => {
        await moveClock({ advance: '1h' })
        const { token } = await tokenFor()
        const resource = await someResource(2)
        const data = { title: 'Renamed', tags: ['a', 'b'], nested: { deep: [1, { x: null }] }, done: true }
        const reply = await put(resource.id, { data, ignored: 'top-level extra' }, `Bearer ${token}`)
        expect(reply.status).toBe(200)
        const updated = { id: resource.id, ...data, created_at: resource.created_at, updated_at: await now() }
        expect(reply.body).toEqual({ message: expect.stringContaining(String(resource.id)), resource: updated })
        expect(await read(resource.id)).toEqual(updated)
        expect((await someResource(2)).data).toEqual(data)
        // Replaced, not merged: the seeded fields are gone.
        expect(await read(resource.id)).not.toHaveProperty('owner')
      })

      it('accepts an id in data equal to the path id, refuses another, and ignores timestamps in data', async () => {
        const { token } = await tokenFor()
        const resource = await someResource()
        const same = await put(resource.id, { data: { id: resource.id, title: 'Same id', created_at: 'x', updated_at: 'y' } }, `Bearer ${token}`)
        expect(same.status).toBe(200)
        expect(same.body.resource).toEqual({ id: resource.id, title: 'Same id', created_at: resource.created_at, updated_at: await now() })
        const other = await put(resource.id, { data: { id: resource.id + 1, title: 'Moved' } }, `Bearer ${token}`)
        expect(other.status).toBe(400)
        expect(other.body.details).toEqual([{ path: 'data.id', message: expect.any(String) }])
        expect((await read(resource.id)).title).toBe('Same id')
      })

      it('refuses data that is not an object, and changes nothing (D19)', async () => {
        const { token } = await tokenFor()
        const resource = await someResource()
        for (const body of [{ data: [1, 2] }, { data: 'text' }, { data: null }, { data: 42 }, { data: true }, {}, [{ data: {} }]]) {
          const reply = await put(resource.id, body, `Bearer ${token}`)
          expect(reply.status, JSON.stringify(body)).toBe(400)
          expect(reply.body.error).toBe('validation_failed')
        }
        const broken = await call(general(`/resources/${resource.id}`), {
          method: 'PUT',
          body: '{"data":',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        })
        expect(broken.body.error).toBe('invalid_json')
        expect((await someResource()).data).toEqual(resource.data)
      })

      it('refuses __proto__, constructor and prototype keys at any depth; nothing reaches a prototype or another resource (D19)', async () => {
        const { token } = await tokenFor()
        const [target, other] = [await someResource(0), await someResource(1)]
        const bodies = [
          '{"data":{"__proto__":{"polluted":"yes"}}}',
          '{"data":{"a":{"b":{"__proto__":{"polluted":"yes"}}}}}',
          '{"data":{"constructor":{"prototype":{"polluted":"yes"}}}}',
          '{"data":{"list":[{"prototype":{"polluted":"yes"}}]}}',
        ]
        for (const body of bodies) {
          const reply = await call(general(`/resources/${target.id}`), { method: 'PUT', body, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } })
          expect(reply.status, body).toBe(400)
          expect(reply.body.details[0].message).toMatch(/not allowed as a key/)
        }
        const paths = await call(general(`/resources/${target.id}`), {
          method: 'PUT',
          body: bodies[3]!,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        })
        expect(paths.body.details).toEqual([{ path: 'data.list.0.prototype', message: '"prototype" is not allowed as a key' }])
        expect((await someResource(0)).data).toEqual(target.data)
        expect((await someResource(1)).data).toEqual(other.data)
        for (const resource of [target, other]) expect(await read(resource.id)).not.toHaveProperty('polluted')
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        // A top-level __proto__ beside data is an unknown field: ignored, and it reaches nothing either.
        const beside = await call(general(`/resources/${target.id}`), {
          method: 'PUT',
          body: '{"__proto__":{"polluted":"yes"},"data":{"title":"ok"}}',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        })
        expect(beside.status).toBe(200)
        expect(beside.body.resource).not.toHaveProperty('polluted')
        expect(await read(other.id)).not.toHaveProperty('polluted')
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      })

      it('answers an unknown id with 404 and a bad one with 400, once authenticated', async () => {
        const { token } = await tokenFor()
        expect((await put(987654, { data: {} }, `Bearer ${token}`)).status).toBe(404)
        for (const id of ['abc', '0', '-3', '2.5']) expect((await put(id, { data: {} }, `Bearer ${token}`)).status, id).toBe(400)
        expect401(await put(987654, { data: {} }), 'unauthorized')
      })
    })

    describe('Bearer token checks on PUT /resources/{id} (D7)', () => {
      const attempt = async (authorization: string | undefined, expected: 'unauthorized' | 'invalid_token' | 'token_expired') => {
        const resource = await someResource()
        const reply = await put(resource.id, { data: { title: 'Hijacked' } }, authorization)
        expect401(reply, expected)
        expect((await someResource()).data).toEqual(resource.data)
        return reply
      }
      const forge = async (header: Record<string, unknown>, payload: Record<string, unknown>, key: Uint8Array) =>
        new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(key)

      it('needs a header: none, or another scheme, is 401 unauthorized with a challenge carrying no error (RFC 6750 §3.1)', async () => {
        const { token } = await tokenFor()
        await attempt(undefined, 'unauthorized')
        await attempt('', 'unauthorized')
        await attempt('Basic dXNlcjpQYXNzdzByZCE=', 'unauthorized')
        await attempt(`Token ${token}`, 'unauthorized')
        await attempt(token, 'unauthorized')
      })

      it('refuses malformed tokens with 401 invalid_token', async () => {
        const { token } = await tokenFor()
        for (const header of ['Bearer', 'Bearer ', 'Bearer not-a-jwt', 'Bearer a.b.c', 'Bearer a.b', `Bearer ${token} extra`, `Bearer ${token}.x`, 'Bearer ***']) {
          await attempt(header, 'invalid_token')
        }
      })

      it('refuses a bad signature and a token signed with another secret', async () => {
        const { token } = await tokenFor()
        const [header, payload, signature] = token.split('.')
        const flipped = `${header}.${payload}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`
        const reply = await attempt(`Bearer ${flipped}`, 'invalid_token')
        expect(reply.headers.get('www-authenticate')).toContain('signature')
        const tampered = base64url.encode(JSON.stringify({ ...decodeJwt(token), sub: 'someone-else' }))
        await attempt(`Bearer ${header}.${tampered}.${signature}`, 'invalid_token')
        const claims = decodeJwt(token)
        await attempt(`Bearer ${await forge({ alg: 'HS256', typ: 'JWT' }, claims, new TextEncoder().encode('another-secret'))}`, 'invalid_token')
      })

      it('refuses alg none and every algorithm but HS256, even with the right secret', async () => {
        const { token } = await tokenFor()
        const claims = decodeJwt(token)
        const none = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url.encode(JSON.stringify(claims))}.`
        await attempt(`Bearer ${none}`, 'invalid_token')
        const hs512 = await forge({ alg: 'HS512', typ: 'JWT' }, claims, await secret())
        expect((await attempt(`Bearer ${hs512}`, 'invalid_token')).headers.get('www-authenticate')).toContain('HS256')
        const { privateKey } = await generateKeyPair('RS256')
        await attempt(`Bearer ${await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(privateKey)}`, 'invalid_token')
      })

      it('accepts a token until exp on the simulator clock, then answers 401 token_expired', async () => {
        const { token } = await tokenFor()
        const resource = await someResource()
        await moveClock({ advance: '3599s' })
        expect((await put(resource.id, { data: { title: 'Still valid' } }, `Bearer ${token}`)).status).toBe(200)
        await moveClock({ advance: '1s' })
        const expired = await put(resource.id, { data: { title: 'Too late' } }, `Bearer ${token}`)
        expect401(expired, 'token_expired')
        expect(expired.headers.get('www-authenticate')).toContain('expired')
        expect((await read(resource.id)).title).toBe('Still valid')
        expect((await tokenFor()).token).not.toBe(token)
      })

      it('refuses a validly signed token without the expected claims', async () => {
        const { token } = await tokenFor()
        const { username: _dropped, ...claims } = decodeJwt(token)
        await attempt(`Bearer ${await forge({ alg: 'HS256' }, claims, await secret())}`, 'invalid_token')
        await attempt(`Bearer ${await forge({ alg: 'HS256' }, { ...decodeJwt(token), iss: 'someone-else' }, await secret())}`, 'invalid_token')
      })

      it('takes the scheme in any case (RFC 9110)', async () => {
        const { token } = await tokenFor()
        expect((await put((await someResource()).id, { data: { title: 'ok' } }, `bearer ${token}`)).status).toBe(200)
      })
    })

    describe('POST /notifications/send', () => {
      const send = (body: unknown) => call(general('/notifications/send'), { method: 'POST', json: body })
      const notifications = async () => (await state()).general.notifications

      it('queues a notification: 202 {id, status, recipients, priority}, priority normal by default (D20)', async () => {
        const reply = await send({ recipient_ids: [3, 1, 3], message: 'Build finished' })
        expect(reply.status).toBe(202)
        expect(reply.body).toEqual({ id: expect.any(String), status: 'queued', recipients: [3, 1], priority: 'normal' })
        expect(await notifications()).toEqual([
          { id: reply.body.id, recipients: [3, 1], message: 'Build finished', priority: 'normal', status: 'queued', queued_at: await now(), delivered_at: null },
        ])
      })

      it('delivers after the priority delay on the simulator clock, and not before the clock moves (D20)', async () => {
        const queuedAt = await now()
        for (const priority of ['high', 'normal', 'low']) expect((await send({ recipient_ids: [1], message: priority, priority })).body.priority).toBe(priority)
        const statuses = async () => Object.fromEntries((await notifications()).map((item) => [item.message, [item.status, item.delivered_at]]))
        expect(await statuses()).toEqual({ high: ['queued', null], normal: ['queued', null], low: ['queued', null] })
        await moveClock({ advance: '999ms' })
        expect((await statuses()).high).toEqual(['queued', null])
        const at = (seconds: number) => new Date(Date.parse(queuedAt) + seconds * 1000).toISOString()
        await moveClock({ advance: '1ms' })
        expect(await statuses()).toEqual({ high: ['delivered', at(1)], normal: ['queued', null], low: ['queued', null] })
        await moveClock({ advance: '4s' })
        expect(await statuses()).toEqual({ high: ['delivered', at(1)], normal: ['delivered', at(5)], low: ['queued', null] })
        await moveClock({ advance: '55s' })
        expect((await statuses()).low).toEqual(['delivered', at(60)])
      })

      it('validates recipients, message and priority, listing every problem, and queues nothing (D20)', async () => {
        const missing = await send({})
        expect(missing.status).toBe(400)
        expect(missing.body.details).toEqual([
          { path: 'recipient_ids', message: 'is required' },
          { path: 'message', message: 'is required' },
        ])
        const bad: Array<[unknown, string[]]> = [
          [{ recipient_ids: [], message: 'x' }, ['recipient_ids']],
          [{ recipient_ids: [0, -1, 1.5, '2'], message: 'x' }, ['recipient_ids.0', 'recipient_ids.1', 'recipient_ids.2', 'recipient_ids.3']],
          [{ recipient_ids: 1, message: 'x' }, ['recipient_ids']],
          [{ recipient_ids: [1], message: '' }, ['message']],
          [{ recipient_ids: [1], message: '   ' }, ['message']],
          [{ recipient_ids: [1], message: 5 }, ['message']],
          [{ recipient_ids: [1], message: 'x', priority: 'urgent' }, ['priority']],
          [{ recipient_ids: [1], message: 'x', priority: null }, ['priority']],
          [{ recipient_ids: Array.from({ length: 1001 }, (_, index) => index + 1), message: 'x' }, ['recipient_ids']],
          [{ recipient_ids: [1], message: 'x'.repeat(2001) }, ['message']],
          [[{ recipient_ids: [1], message: 'x' }], ['']],
        ]
        for (const [body, paths] of bad) {
          const reply = await send(body)
          expect(reply.status, JSON.stringify(body).slice(0, 80)).toBe(400)
          expect(reply.body.details.map((detail: { path: string }) => detail.path)).toEqual(paths)
        }
        expect(await notifications()).toEqual([])
        expect((await send({ recipient_ids: Array.from({ length: 1000 }, (_, index) => index + 1), message: 'x'.repeat(2000), priority: 'low' })).status).toBe(202)
      })
    })

    describe('state (D25, D26)', () => {
      it('round-trips through GET and PUT /__mock/state, and reset brings back the seeded section', async () => {
        const seeded = (await state()).general
        const { token } = await tokenFor()
        await put(seeded.resources[0]!.id, { data: { title: 'Changed', nested: { list: [1, 2] } } }, `Bearer ${token}`)
        await call(general('/notifications/send'), { method: 'POST', json: { recipient_ids: [7], message: 'hello', priority: 'high' } })
        await call(general('/notifications/send'), { method: 'POST', json: { recipient_ids: [8], message: 'later', priority: 'low' } })
        await moveClock({ advance: '2s' })
        const changed = await state()
        expect(changed.general.notifications.map((item) => item.status)).toEqual(['delivered', 'queued'])
        await call(`${base()}/__mock/reset`, { method: 'POST' })
        await moveClock({ advance: '2s' })
        expect((await state()).general).toEqual(seeded)
        expect((await call(`${base()}/__mock/state`, { method: 'PUT', json: changed })).status).toBe(200)
        expect((await state()).general).toEqual(changed.general)
        expect((await read(seeded.resources[0]!.id)).title).toBe('Changed')
      })

      it('validates the general section of a state document and changes nothing on error', async () => {
        const before = await state()
        const resource = before.general.resources[0]!
        const broken = [
          { resources: [resource, resource] },
          { resources: [{ ...resource, id: 0 }] },
          { resources: [{ ...resource, data: [1] }] },
          { resources: [{ ...resource, data: null }] },
          { resources: [{ id: 1, created_at: resource.created_at }] },
          { resources: [{ ...resource, data: { id: 5 } }] },
          { resources: [{ ...resource, data: JSON.parse('{"__proto__":{"polluted":"yes"}}') }] },
          { resources: [], notifications: [{ id: 'n1', recipients: [], message: 'x', queued_at: '2026-01-01T00:00:00Z' }] },
        ]
        for (const section of broken) {
          const reply = await call(`${base()}/__mock/state`, { method: 'PUT', json: { ...before, general: section } })
          expect(reply.status, JSON.stringify(section).slice(0, 80)).toBe(400)
        }
        expect(await state()).toEqual(before)
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      })
    })

    it('answers an unsupported method with 405 and Allow', async () => {
      const reply = await call(general('/auth/login'))
      expect(reply.status).toBe(405)
      expect(reply.headers.get('allow')).toBe('POST')
    })
  })
}
