import { describe, expect, it } from 'vitest'
import { ALL_AREAS } from '../../src/areas/registry.js'
import { call, resetWorld, useDefaultWorld } from '../support/http.js'

/**
 * Area A behaviour, written once and run twice: in-process through msw's
 * `setupServer` and over HTTP against the CLI server. `base()` is the origin
 * the simulator answers on; the world must be the `default` scenario with seed 1
 * and the clock fixed at 2026-01-01T00:00:00Z.
 */
export function describeAdminContract(base: () => string): void {
  const users = () => `${base()}/admin/api/v1.2/users`
  const newUser = (name: string) => ({ username: name, email: `${name}@example.com`, password: 'correct-horse' })

  describe('Area A: user administration', () => {
    useDefaultWorld(base)

    describe('GET /api/v1.2/users', () => {
      it('returns the first 20 users with a total count and RFC 8288 links (D12)', async () => {
        const reply = await call(users())
        expect(reply.status).toBe(200)
        expect(reply.body).toHaveLength(20)
        expect(reply.headers.get('x-total-count')).toBe('48')
        const link = reply.headers.get('link')!
        expect(link).toContain('page=1&limit=20>; rel="first"')
        expect(link).toContain('page=2&limit=20>; rel="next"')
        expect(link).toContain('page=3&limit=20>; rel="last"')
        expect(link).not.toContain('rel="prev"')
        for (const user of reply.body) {
          expect(Object.keys(user).sort()).toEqual(['created_at', 'email', 'id', 'status', 'username'])
        }
      })

      it('orders by created_at, then id, across pages', async () => {
        const first = await call(`${users()}?page=1&limit=30`)
        const second = await call(`${users()}?page=2&limit=30`)
        const all = [...first.body, ...second.body]
        expect(all).toHaveLength(48)
        const sorted = [...all].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
        expect(all.map((user) => user.id)).toEqual(sorted.map((user) => user.id))
        expect(new Set(all.map((user) => user.id)).size).toBe(48)
        expect(second.headers.get('link')).toContain('rel="prev"')
      })

      it('filters by status and counts only the matches', async () => {
        for (const [status, count] of [
          ['active', 30],
          ['inactive', 8],
          ['pending', 10],
        ] as const) {
          const reply = await call(`${users()}?status=${status}&limit=100`)
          expect(reply.status).toBe(200)
          expect(reply.headers.get('x-total-count')).toBe(String(count))
          expect(reply.body).toHaveLength(count)
          expect(reply.body.every((user: { status: string }) => user.status === status)).toBe(true)
        }
        expect((await call(`${users()}?status=active&page=2&limit=20`)).headers.get('link')).toContain('status=active')
      })

      it('shows every write on the next read of the same page: create (here or in Area B), update, delete, reset', async () => {
        const page = async () => (await call(`${users()}?limit=100`)).body as Array<{ id: string; username: string; email: string }>
        const seeded = await page()
        expect(await page()).toEqual(seeded)
        const created = (await call(users(), { method: 'POST', json: newUser('page.watcher') })).body
        expect((await page()).at(-1)).toMatchObject({ id: created.id, username: 'page.watcher' })
        await call(`${base()}/core/users`, { method: 'POST', json: newUser('core.signup') })
        expect((await page()).at(-1)).toMatchObject({ username: 'core.signup' })
        await call(`${users()}/${seeded[0]!.id}`, { method: 'PUT', json: { email: 'changed@example.com' } })
        expect((await page())[0]).toMatchObject({ id: seeded[0]!.id, email: 'changed@example.com' })
        await call(`${users()}/${seeded[1]!.id}`, { method: 'DELETE' })
        expect((await page()).map((user) => user.id)).not.toContain(seeded[1]!.id)
        await resetWorld(base())
        expect(await page()).toEqual(seeded)
      })

      it('answers a page past the end with 200 []', async () => {
        const reply = await call(`${users()}?page=99`)
        expect(reply.status).toBe(200)
        expect(reply.body).toEqual([])
        expect(reply.headers.get('x-total-count')).toBe('48')
      })

      it('rejects bad page, limit and status with every problem listed (D12)', async () => {
        const reply = await call(`${users()}?page=0&limit=101&status=deleted`)
        expect(reply.status).toBe(400)
        expect(reply.body.error).toBe('validation_failed')
        expect(reply.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['query.limit', 'query.page', 'query.status'])
        for (const query of ['page=abc', 'page=1.5', 'limit=0', 'limit=', 'page=-1']) {
          expect((await call(`${users()}?${query}`)).status, query).toBe(400)
        }
      })
    })

    describe('POST /api/v1.2/users', () => {
      it('creates a pending user, never echoing the password (D5)', async () => {
        const reply = await call(users(), { method: 'POST', json: newUser('grace.hopper') })
        expect(reply.status).toBe(201)
        expect(reply.body).toMatchObject({
          username: 'grace.hopper',
          email: 'grace.hopper@example.com',
          status: 'pending',
          created_at: '2026-01-01T00:00:00.000Z',
          last_login: null,
        })
        expect(reply.text).not.toContain('correct-horse')
        expect(reply.text).not.toContain('password')
        expect(reply.headers.get('location')).toBe(`/admin/api/v1.2/users/${reply.body.id}`)
        const read = await call(`${users()}/${reply.body.id}`)
        expect(read.status).toBe(200)
        expect(read.body).toEqual(reply.body)
        expect((await call(users())).headers.get('x-total-count')).toBe('49')
      })

      it('is the same account in Area B (D5)', async () => {
        const created = await call(users(), { method: 'POST', json: newUser('shared.account') })
        const core = await call(`${base()}/core/users?limit=100`)
        expect(core.body).toContainEqual({ id: created.body.id, username: 'shared.account', email: 'shared.account@example.com', created_at: created.body.created_at })
      })

      it('refuses a taken username, whatever its case, and writes nothing (D5)', async () => {
        await call(users(), { method: 'POST', json: newUser('linus') })
        const reply = await call(users(), { method: 'POST', json: { ...newUser('LINUS'), email: 'other@example.com' } })
        expect(reply.status).toBe(409)
        expect(reply.body).toMatchObject({ error: 'conflict' })
        expect(reply.body.message).toContain('LINUS')
        expect((await call(users())).headers.get('x-total-count')).toBe('49')
      })

      it('lists every validation problem and writes nothing (D11)', async () => {
        const reply = await call(users(), { method: 'POST', json: { username: 'x', email: 'not-an-email', extra: true } })
        expect(reply.status).toBe(400)
        expect(reply.body.error).toBe('validation_failed')
        expect(reply.body.message).toEqual(expect.any(String))
        expect(reply.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['email', 'password', 'username'])
        expect((await call(users())).headers.get('x-total-count')).toBe('48')
      })

      it('answers malformed bodies with the right 4xx', async () => {
        const post = (body: string, type = 'application/json') => call(users(), { method: 'POST', body, headers: { 'content-type': type } })
        expect((await post('{"username":')).body.error).toBe('invalid_json')
        expect((await post('[1,2]')).body).toMatchObject({ error: 'validation_failed', details: [{ path: '' }] })
        expect((await post('')).status).toBe(400)
        const wrongType = await post(JSON.stringify(newUser('typed')), 'text/plain')
        expect(wrongType.status).toBe(415)
        expect(wrongType.body.error).toBe('unsupported_media_type')
        expect((await call(users())).headers.get('x-total-count')).toBe('48')
      })
    })

    describe('GET /api/v1.2/users/{userId}', () => {
      it('reads one user with last_login and updated_at', async () => {
        const [listed] = (await call(`${users()}?status=active&limit=1`)).body
        const reply = await call(`${users()}/${listed.id}`)
        expect(reply.status).toBe(200)
        expect(reply.body).toMatchObject(listed)
        expect(reply.body.last_login).toMatch(/^\d{4}-\d{2}-\d{2}T/)
        expect(Object.keys(reply.body).sort()).toEqual(['created_at', 'email', 'id', 'last_login', 'status', 'updated_at', 'username'])
      })

      it('answers an unknown id with 404 naming it (D13)', async () => {
        const reply = await call(`${users()}/no-such-user`)
        expect(reply.status).toBe(404)
        expect(reply.body.error).toBe('not_found')
        expect(reply.body.message).toContain('no-such-user')
      })
    })

    describe('PUT /api/v1.2/users/{userId}', () => {
      it('changes only the given fields and stamps updated_at (D13)', async () => {
        const created = (await call(users(), { method: 'POST', json: newUser('to.update') })).body
        const reply = await call(`${users()}/${created.id}`, { method: 'PUT', json: { status: 'active' } })
        expect(reply.status).toBe(200)
        expect(reply.body).toMatchObject({ id: created.id, status: 'active', email: created.email, updated_at: '2026-01-01T00:00:00.000Z' })
        const emailed = await call(`${users()}/${created.id}`, { method: 'PUT', json: { email: 'new@example.com' } })
        expect(emailed.body).toMatchObject({ status: 'active', email: 'new@example.com' })
        expect((await call(`${users()}/${created.id}`)).body.email).toBe('new@example.com')
      })

      it('follows the simulator clock when only the clock moves: created_at stays, updated_at moves', async () => {
        const created = (await call(users(), { method: 'POST', json: newUser('time.traveller') })).body
        expect((await call(`${base()}/__mock/clock`, { method: 'POST', json: { advance: '36h' } })).status).toBe(200)
        const updated = (await call(`${users()}/${created.id}`, { method: 'PUT', json: { status: 'active' } })).body
        expect(updated).toMatchObject({ created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-02T12:00:00.000Z' })
        await call(`${base()}/__mock/clock`, { method: 'POST', json: { set: '2027-03-04T05:06:07Z' } })
        const later = (await call(users(), { method: 'POST', json: newUser('later.one') })).body
        expect(later).toMatchObject({ created_at: '2027-03-04T05:06:07.000Z', updated_at: '2027-03-04T05:06:07.000Z' })
        // The list orders by created_at (D12): the later user is last.
        const all = (await call(`${users()}?limit=100`)).body
        expect(all.at(-1).id).toBe(later.id)
      })

      it('accepts active and inactive from any state, refuses pending and bad emails (D13)', async () => {
        const [user] = (await call(`${users()}?status=active&limit=1`)).body
        expect((await call(`${users()}/${user.id}`, { method: 'PUT', json: { status: 'inactive' } })).body.status).toBe('inactive')
        const refused = await call(`${users()}/${user.id}`, { method: 'PUT', json: { status: 'pending', email: 'nope' } })
        expect(refused.status).toBe(400)
        expect(refused.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['email', 'status'])
        expect((await call(`${users()}/${user.id}`)).body).toMatchObject({ status: 'inactive', email: user.email })
      })

      it('answers an unknown id with 404 naming it', async () => {
        const reply = await call(`${users()}/ghost`, { method: 'PUT', json: { status: 'active' } })
        expect(reply.status).toBe(404)
        expect(reply.body.message).toContain('ghost')
      })
    })

    describe('DELETE /api/v1.2/users/{userId}', () => {
      it('deletes for good: 204 with no body, then 404', async () => {
        const [user] = (await call(users())).body
        const reply = await call(`${users()}/${user.id}`, { method: 'DELETE' })
        expect(reply.status).toBe(204)
        expect(reply.text).toBe('')
        expect((await call(`${users()}/${user.id}`)).status).toBe(404)
        const again = await call(`${users()}/${user.id}`, { method: 'DELETE' })
        expect(again.status).toBe(404)
        expect(again.body.message).toContain(user.id)
        expect((await call(users())).headers.get('x-total-count')).toBe('47')
      })
    })

    it('answers an unsupported method with 405 and Allow', async () => {
      const reply = await call(users(), { method: 'PATCH', json: {} })
      expect(reply.status).toBe(405)
      expect(reply.body.error).toBe('method_not_allowed')
      expect(reply.headers.get('allow')).toBe('GET, POST')
    })

    it('answers an unknown route inside the area with 404 and a suggestion (D27)', async () => {
      const reply = await call(`${base()}/admin/api/v1.2/user`)
      expect(reply.status).toBe(404)
      expect(reply.body.suggestion).toBe('GET /admin/api/v1.2/users')
      // Every mounted area, whichever areas this build ships.
      expect(reply.body.areas.map((area: { id: string }) => area.id)).toEqual(ALL_AREAS.map((area) => area.id))
    })

    it('reset brings back the seeded state', async () => {
      const [user] = (await call(users())).body
      await call(`${users()}/${user.id}`, { method: 'DELETE' })
      await resetWorld(base())
      expect((await call(`${users()}/${user.id}`)).status).toBe(200)
    })
  })
}
