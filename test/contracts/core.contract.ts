import { describe, expect, it } from 'vitest'
import { call, useDefaultWorld } from '../support/http.js'

/**
 * Area B behaviour, run in-process and over HTTP (see admin.contract.ts).
 * The world must be the `default` scenario, seed 1, clock 2026-01-01T00:00:00Z.
 */
export function describeCoreContract(base: () => string): void {
  const core = (path: string) => `${base()}/core${path}`
  const point = (sensor: string, value: number, minute = 0) => ({ timestamp: `2026-01-01T00:${String(minute).padStart(2, '0')}:00Z`, value, sensor_id: sensor })
  const readings = async () => (await call(`${base()}/__mock/state`)).body.core.readings as Array<{ sensor_id: string; points: unknown[] }>
  const ingestion = async () => (await call(`${base()}/__mock/state`)).body.core.ingestion

  describe('Area B: core', () => {
    useDefaultWorld(base)

    describe('GET /users', () => {
      it('lists the shared accounts as id, username, email, created_at (D5, D12)', async () => {
        const reply = await call(core('/users'))
        expect(reply.status).toBe(200)
        expect(reply.body).toHaveLength(20)
        expect(reply.headers.get('x-total-count')).toBe('48')
        for (const user of reply.body) expect(Object.keys(user).sort()).toEqual(['created_at', 'email', 'id', 'username'])
        const admin = await call(`${base()}/admin/api/v1.2/users?limit=20`)
        expect(reply.body.map((user: { id: string }) => user.id)).toEqual(admin.body.map((user: { id: string }) => user.id))
      })

      it('pages with limit and offset', async () => {
        const all = (await call(core('/users?limit=100'))).body
        expect(all).toHaveLength(48)
        const page = await call(core('/users?limit=5&offset=10'))
        expect(page.body).toEqual(all.slice(10, 15))
        expect((await call(core('/users?offset=48'))).body).toEqual([])
      })

      it('rejects bad limit and offset with both listed (D12)', async () => {
        const reply = await call(core('/users?limit=0&offset=-1'))
        expect(reply.status).toBe(400)
        expect(reply.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['query.limit', 'query.offset'])
        expect((await call(core('/users?limit=101'))).status).toBe(400)
      })
    })

    describe('POST /users', () => {
      it('creates an account that Area A sees as pending (D5, D10)', async () => {
        const reply = await call(core('/users'), { method: 'POST', json: { username: 'core.user', email: 'core.user@example.com', password: 'long-enough' } })
        expect(reply.status).toBe(201)
        expect(reply.body).toEqual({ id: expect.any(String), username: 'core.user', email: 'core.user@example.com', created_at: '2026-01-01T00:00:00.000Z' })
        const admin = await call(`${base()}/admin/api/v1.2/users/${reply.body.id}`)
        expect(admin.body.status).toBe('pending')
      })

      it('refuses a username taken in Area A (D5)', async () => {
        const [existing] = (await call(`${base()}/admin/api/v1.2/users`)).body
        const reply = await call(core('/users'), { method: 'POST', json: { username: existing.username, email: 'x@example.com', password: 'long-enough' } })
        expect(reply.status).toBe(409)
        expect(reply.body.error).toBe('conflict')
        expect((await call(core('/users'))).headers.get('x-total-count')).toBe('48')
      })

      it('validates like Area A', async () => {
        const reply = await call(core('/users'), { method: 'POST', json: { username: 42 } })
        expect(reply.status).toBe(400)
        expect(reply.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['email', 'password', 'username'])
      })
    })

    describe('GET and PUT /products/{id}', () => {
      it('reads a product from the fixture catalogue (D14)', async () => {
        const reply = await call(core('/products/prod-1001'))
        expect(reply.status).toBe(200)
        expect(reply.body).toEqual({
          id: 'prod-1001',
          name: 'Aurora Mechanical Keyboard',
          description: expect.any(String),
          price: 89.99,
          stock: 42,
        })
      })

      it('answers an unknown product with 404', async () => {
        const reply = await call(core('/products/prod-0'))
        expect(reply.status).toBe(404)
        expect(reply.body).toMatchObject({ error: 'not_found' })
        expect(reply.body.message).toContain('prod-0')
      })

      it('updates price and stock and returns the full product (D10, D14)', async () => {
        const reply = await call(core('/products/prod-1002'), { method: 'PUT', json: { price: 29.5, stock: 7, colour: 'ignored' } })
        expect(reply.status).toBe(200)
        expect(reply.body).toMatchObject({ id: 'prod-1002', name: 'Nimbus Wireless Mouse', price: 29.5, stock: 7 })
        expect(reply.body).not.toHaveProperty('colour')
        expect((await call(core('/products/prod-1002'))).body).toEqual(reply.body)
      })

      it('refuses bad values with every problem listed and changes nothing (D11, D14)', async () => {
        const before = (await call(core('/products/prod-1003'))).body
        const reply = await call(core('/products/prod-1003'), { method: 'PUT', json: { price: 1.234, stock: -1, name: '' } })
        expect(reply.status).toBe(400)
        expect(reply.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['name', 'price', 'stock'])
        expect((await call(core('/products/prod-1003'), { method: 'PUT', json: { stock: 1.5 } })).status).toBe(400)
        expect((await call(core('/products/prod-1003'), { method: 'PUT', json: { price: -0.01 } })).status).toBe(400)
        expect((await call(core('/products/prod-1003'))).body).toEqual(before)
      })

      it('keeps the id immutable (D14)', async () => {
        const reply = await call(core('/products/prod-1004'), { method: 'PUT', json: { id: 'prod-9999', stock: 1 } })
        expect(reply.status).toBe(400)
        expect(reply.body.details[0].path).toBe('id')
        expect((await call(core('/products/prod-9999'))).status).toBe(404)
        expect((await call(core('/products/prod-1004'), { method: 'PUT', json: { id: 'prod-1004', stock: 1 } })).body.stock).toBe(1)
      })

      it('answers PUT on an unknown product with 404', async () => {
        expect((await call(core('/products/nope'), { method: 'PUT', json: { stock: 1 } })).status).toBe(404)
      })
    })

    describe('POST /ingest/data', () => {
      it('accepts a batch, counts it and stores it per sensor (D15)', async () => {
        const batch = [point('s-1', 20.5), point('s-2', -3), point('s-1', 21, 1)]
        const reply = await call(core('/ingest/data'), { method: 'POST', json: batch })
        expect(reply.status).toBe(200)
        expect(reply.body).toMatchObject({ status: 'success', records_processed: 3 })
        expect(reply.body.message).toEqual(expect.any(String))
        const stored = await readings()
        expect(stored.map((reading) => [reading.sensor_id, reading.points.length])).toEqual([
          ['s-1', 2],
          ['s-2', 1],
        ])
        expect(stored[0]).toEqual({
          sensor_id: 's-1',
          accepted: 2,
          evicted: 0,
          points: [
            { timestamp: '2026-01-01T00:00:00.000Z', value: 20.5 },
            { timestamp: '2026-01-01T00:01:00.000Z', value: 21 },
          ],
        })
        expect(await ingestion()).toEqual({ accepted: 3, evicted: 0, stored: 3, sensors: 2, sensor_window: 10_000, window: 500_000 })
      })

      it('keeps running counts through GET and PUT /__mock/state, and reset forgets them (D15 window)', async () => {
        await call(core('/ingest/data'), { method: 'POST', json: [point('s-1', 1), point('s-2', 2)] })
        await call(core('/ingest/data'), { method: 'POST', json: [point('s-1', 3, 1)] })
        const state = (await call(`${base()}/__mock/state`)).body
        expect(state.core.ingestion).toMatchObject({ accepted: 3, evicted: 0, stored: 3, sensors: 2 })
        await call(`${base()}/__mock/reset`, { method: 'POST' })
        expect(await ingestion()).toMatchObject({ accepted: 0, evicted: 0, stored: 0, sensors: 0 })
        expect(await readings()).toEqual([])
        const replaced = await call(`${base()}/__mock/state`, { method: 'PUT', json: state })
        expect(replaced.status).toBe(200)
        expect(replaced.body.counts.readings).toBe(3)
        expect((await call(`${base()}/__mock/state`)).body.core).toEqual(state.core)
      })

      it('rejects the whole batch when one point is bad, naming its index (D15)', async () => {
        const batch = [point('s-1', 1), { timestamp: 'yesterday', value: 2, sensor_id: 's-1' }, point('s-1', 3), { ...point('', 4) }]
        const reply = await call(core('/ingest/data'), { method: 'POST', json: batch })
        expect(reply.status).toBe(400)
        expect(reply.body.error).toBe('validation_failed')
        expect(reply.body.invalid_indexes).toEqual([1, 3])
        expect(reply.body.details.map((detail: { path: string }) => detail.path)).toEqual(['1.timestamp', '3.sensor_id'])
        expect(await readings()).toEqual([])
        expect(await ingestion()).toMatchObject({ accepted: 0, stored: 0 })
      })

      it('rejects an empty batch, a non-array and non-finite values', async () => {
        expect((await call(core('/ingest/data'), { method: 'POST', json: [] })).status).toBe(400)
        expect((await call(core('/ingest/data'), { method: 'POST', json: { points: [] } })).status).toBe(400)
        expect((await call(core('/ingest/data'), { method: 'POST', json: [{ ...point('s', 1), value: '1' }] })).status).toBe(400)
        expect(await readings()).toEqual([])
      })

      it('refuses more than 10,000 points with 413 (D15)', async () => {
        const batch = Array.from({ length: 10_001 }, (_, index) => point('s-big', index))
        const reply = await call(core('/ingest/data'), { method: 'POST', json: batch })
        expect(reply.status).toBe(413)
        expect(reply.body).toMatchObject({ error: 'payload_too_large', limit: 10_000 })
        expect(await ingestion()).toMatchObject({ accepted: 0, stored: 0 })
        const accepted = await call(core('/ingest/data'), { method: 'POST', json: batch.slice(0, 10_000) })
        expect(accepted.body.records_processed).toBe(10_000)
        expect(await ingestion()).toMatchObject({ accepted: 10_000, evicted: 0, stored: 10_000 })
      })
    })
  })
}
