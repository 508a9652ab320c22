import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import './index.js'
import { createSimulator } from '../simulator/create-simulator.js'
import { startServer, type RunningServer } from '../node/server/server.js'
import { createMockWorld } from '../testing/mock-world.js'

const CLOCK = '2026-01-01T00:00:00Z'

describe("import 'multi-area-mock/vitest'", () => {
  it('adds expect(sim).toHaveReceivedRequest for an in-process simulator, `.not` and `times` included', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK, scenario: 'empty' })
    await sim.fetch(new Request('http://sim.test/core/users?limit=2'))
    expect(sim).toHaveReceivedRequest({ method: 'GET', path: '/core/users', status: 200, query: { limit: '2' } }, { times: 1 })
    expect(sim).not.toHaveReceivedRequest({ method: 'POST' })
    expect(() => expect(sim).toHaveReceivedRequest({ method: 'GET' }, { times: 2 })).toThrow(/Expected: GET any path, exactly twice\nReceived: 1 matching request among 1 request/)
    expect(() => expect(sim).not.toHaveReceivedRequest({ area: 'core' })).toThrow(/Matching requests:\n {2}#1 GET \/core\/users\?limit=2 → 200/)
  })

  it('reads the journal of the world the simulator is', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK, scenario: 'empty' })
    const world = await sim.worlds.create()
    await sim.fetch(new Request('http://sim.test/core/users', { headers: { 'x-mock-world': world.worldId! } }))
    expect(world).toHaveReceivedRequest({ path: '/core/users' })
    expect(() => expect(sim).toHaveReceivedRequest({ path: '/core/users' })).toThrow('No request reached the simulator in the default world')
  })

  it('refuses something that is not a simulator, and a malformed match', () => {
    expect(() => expect({}).toHaveReceivedRequest({})).toThrow('toHaveReceivedRequest: expected a simulator (createSimulator()) or a MockWorld, received {}.')
    const sim = createSimulator({ seed: 1, clock: CLOCK })
    expect(() => expect(sim).toHaveReceivedRequest({ status: 'teapot' })).toThrow('match.status: must be a status like 404 or a class like "4xx"')
  })

  describe('a world on a simulator server (createMockWorld)', () => {
    let server: RunningServer
    beforeAll(async () => {
      server = await startServer({ port: 0, seed: 1, clock: CLOCK, scenario: 'empty' })
    })
    afterAll(() => server.close())

    it('is matched over HTTP with `await expect(world)...`', async () => {
      const world = await createMockWorld(server.url)
      await world.fetch('/core/users')
      await expect(world).toHaveReceivedRequest({ method: 'GET', path: '/core/users' }, { times: 1 })
      await expect(expect(world).toHaveReceivedRequest({ method: 'DELETE' })).rejects.toThrow(/Closest entry \(of 1 that differs?\)/)
      await world.delete()
    })
  })
})
