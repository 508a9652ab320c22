import { getResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { createSimulator } from './create-simulator.js'

/**
 * The CLI server can reach the handlers through msw's `getResponse` or straight
 * through the route table (`--dispatch direct`). They must answer identically.
 */
describe('msw getResponse and direct dispatch', () => {
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
  ]

  it('give the same status, headers and body for every request, in order', async () => {
    const viaMsw = createSimulator({ seed: 4, clock: '2026-01-01T00:00:00Z' })
    const direct = createSimulator({ seed: 4, clock: '2026-01-01T00:00:00Z' })
    for (const [path, init] of requests) {
      const a = await getResponse(viaMsw.handlers, new Request(`http://sim.test${path}`, init))
      const b = await direct.fetch(new Request(`http://sim.test${path}`, init))
      expect(a, path).toBeDefined()
      expect(b, path).toBeDefined()
      expect(b!.status, path).toBe(a!.status)
      expect([...b!.headers], path).toEqual([...a!.headers])
      expect(await b!.text(), path).toBe(await a!.text())
    }
  })

  it('both leave a URL no area claims to the caller', async () => {
    const sim = createSimulator()
    expect(await getResponse(sim.handlers, new Request('http://sim.test/nowhere'))).toBeUndefined()
    expect(sim.fetch(new Request('http://sim.test/nowhere'))).toBeUndefined()
  })
})
