import { getResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { fromFetchRequest, toFetchResponse } from '../../kernel/http/fetch-adapter.js'
import { createSimulator } from '../create-simulator.js'
import { engineOf } from '../engine.js'

/**
 * The handlers answer through msw's `getResponse` (`--dispatch msw`, in-process,
 * the browser), through `sim.fetch` (in-process, without msw) or through the
 * engine's `reply` (`--dispatch fast`, there with Node's request:
 * src/node/server/dispatch-paths.test.ts compares the bytes on the wire). They must
 * answer identically.
 */
describe('msw getResponse, sim.fetch and fast dispatch', () => {
  const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const requests: Array<[string, RequestInit?]> = [
    ['/admin/api/v1.2/users?page=2&limit=5&status=active'],
    ['/admin/api/v1.2/users', json({ username: 'same.path', email: 'same.path@example.com', password: 'long-enough' })],
    ['/admin/api/v1.2/users', json({ username: 'SAME.PATH', email: 'x@example.com', password: 'long-enough' })],
    ['/admin/api/v1.2/users', json({ username: 1 })],
    ['/admin/api/v1.2/users', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }],
    ['/admin/api/v1.2/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' }],
    ['/admin/api/v1.2/users', { method: 'PATCH' }],
    ['/admin/api/v1.2/users/unknown-id'],
    ['/admin/api/v1.2/usrs'],
    ['/core/users?limit=3&offset=2'],
    ['/core/products/prod-1001', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ price: 10.5 }) }],
    ['/core/products/prod-1001', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ price: 10.555 }) }],
    ['/core/ingest/data', json([{ timestamp: '2026-01-01T00:00:00Z', value: 1, sensor_id: 's' }, { value: 'x' }])],
    ['/core/ingest/data', json([{ timestamp: '2026-01-01T00:00:00Z', value: 1, sensor_id: 's' }])],
    ['/__mock/health'],
    ['/__mock/state'],
    ['/__mock/scenarios/nope', { method: 'POST' }],
    ['/core/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(2 * 1024 * 1024) }],
    ['/core/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '\uFEFF{"name":"Bom","email":"bom@example.com","password":"long-enough"}' }],
    ['/core/users/unknown', { headers: { prefer: 'code=503' } }],
    ['/core/users', { headers: { 'x-mock-world': 'nope' } }],
    ['/general/data/res-1', { headers: { authorization: 'Bearer nope' } }],
    ['/ledger/v1/stake/delegate', json({ delegator: 'x' })],
    ['/quantum/v1/entangle', json({ count: 2 })],
  ]

  it('give the same status, headers and body for every request, in order', async () => {
    const viaMsw = createSimulator({ seed: 4, clock: '2026-01-01T00:00:00Z' })
    const direct = createSimulator({ seed: 4, clock: '2026-01-01T00:00:00Z' })
    const fast = createSimulator({ seed: 4, clock: '2026-01-01T00:00:00Z' })
    for (const [path, init] of requests) {
      const a = await getResponse(viaMsw.handlers, new Request(`http://sim.test${path}`, init))
      const b = await direct.fetch(new Request(`http://sim.test${path}`, init))
      const reply = await engineOf(fast).reply(fromFetchRequest(new Request(`http://sim.test${path}`, init)))
      expect(a, path).toBeDefined()
      expect(b, path).toBeDefined()
      expect(reply, path).toBeDefined()
      const c = toFetchResponse(reply!)
      for (const other of [b!, c]) {
        expect(other.status, path).toBe(a!.status)
        expect(other.statusText, path).toBe(a!.statusText)
        expect([...other.headers], path).toEqual([...a!.headers])
      }
      const text = await a!.text()
      expect(await b!.text(), path).toBe(text)
      // A streamed reply (the state document) has its text in the stream.
      expect(reply!.stream ? await c.text() : (reply!.body ?? ''), path).toBe(text)
    }
  })

  it('all leave a URL no area claims to the caller', async () => {
    const sim = createSimulator()
    expect(await getResponse(sim.handlers, new Request('http://sim.test/nowhere'))).toBeUndefined()
    expect(sim.fetch(new Request('http://sim.test/nowhere'))).toBeUndefined()
    expect(engineOf(sim).reply(fromFetchRequest(new Request('http://sim.test/nowhere')))).toBeUndefined()
  })
})
