import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSimulator } from './create-simulator.js'

const CLOCK = '2026-01-01T00:00:00Z'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('sim.db before the scenario is seeded', () => {
  it('throws one error naming `await sim.ready`, then holds the whole world once ready', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK })
    expect(() => sim.db).toThrow('sim.db is not ready yet: await sim.ready first (the scenario is still being seeded).')
    expect(() => sim.db.users.count()).toThrow(/await sim\.ready/)
    await sim.ready
    expect(sim.db.users.count()).toBe(48)
    expect(sim.db.products?.count()).toBeGreaterThan(0)
  })

  it('is ready once anything queued after the first load settles: reset(), a request', async () => {
    const reset = createSimulator({ seed: 1, clock: CLOCK })
    await reset.reset()
    expect(reset.db.users.count()).toBe(48)

    const requested = createSimulator({ seed: 1, clock: CLOCK })
    expect((await requested.fetch(new Request('http://sim.test/core/products/prod-1001'))!).status).toBe(200)
    expect(requested.db.products?.findFirst((q) => q.where({ id: 'prod-1001' }))?.id).toBe('prod-1001')
  })

  it('counts() and the state API keep working before then', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK })
    expect(() => sim.counts()).not.toThrow()
    await sim.ready
    expect(sim.counts().users).toBe(48)
  })

  it('says why when seeding failed, with the cause', async () => {
    // What a browser page on a plain-http, non-localhost origin meets: no WebCrypto for the password hashes.
    const insecure = new DOMException('The operation is insecure.', 'SecurityError')
    const importKey = crypto.subtle.importKey.bind(crypto.subtle)
    vi.spyOn(crypto.subtle, 'importKey').mockImplementation(((...args: Parameters<typeof importKey>) =>
      args[2] === 'PBKDF2' ? Promise.reject(insecure) : importKey(...args)) as typeof importKey)
    const sim = createSimulator({ seed: 1, clock: CLOCK })
    await expect(sim.ready).rejects.toBe(insecure)
    let thrown: unknown
    try {
      void sim.db
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(Error)
    expect((thrown as Error).message).toBe('sim.db is not available: the scenario failed to load (The operation is insecure.).')
    expect((thrown as Error).cause).toBe(insecure)

    // A later load that succeeds makes it readable again.
    vi.restoreAllMocks()
    await sim.loadScenario('default')
    expect(sim.db.users.count()).toBe(48)
  })

  it('each world of a simulator is ready before sim.worlds.create() returns', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK })
    const world = await sim.worlds.create({ scenario: 'pending-users' })
    expect(world.db.users.count()).toBeGreaterThan(0)
    expect(world.db.users.findMany((q) => q.where({ status: 'active' }))).toEqual([])
  })
})
