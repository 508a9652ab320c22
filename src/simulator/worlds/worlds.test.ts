import { describe, expect, it } from 'vitest'
import { ApiError } from '../../kernel/errors/api-error.js'
import { toSimClock } from '../../kernel/time/sim-clock.js'
import { createSimulator } from '../create-simulator.js'
import { requestedWorld } from './worlds.js'

const CLOCK = '2026-01-01T00:00:00Z'
const count = async (response: Promise<Response> | undefined) => Number((await response!).headers.get('x-total-count'))
const users = (headers: Record<string, string> = {}) => new Request('http://sim.test/core/users?limit=1', { headers })

describe('sim.worlds', () => {
  it('creates worlds with their own database, clock, journal and faults, reachable by header or directly', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK })
    const world = await sim.worlds.create({ scenario: 'empty', clock: '2030-01-01T00:00:00Z' })
    expect(world.worldId).toBe('world-1')
    expect(sim.worlds.get('world-1')).toBe(world)
    expect(sim.worlds.get('default')).toBe(sim)
    expect(world.counts().users).toBe(0)
    expect(await count(sim.fetch(users({ 'x-mock-world': 'world-1' })))).toBe(0)
    expect(await count(sim.fetch(users()))).toBe(48)
    // A world's own handlers answer as that world; a header still picks another.
    expect(await count(world.fetch(users()))).toBe(0)
    expect(await count(world.fetch(users({ 'x-mock-world': 'default' })))).toBe(48)
    world.clock.advance('1d')
    expect(sim.now()).toBe('2026-01-01T00:00:00.000Z')
    expect(world.now()).toBe('2030-01-02T00:00:00.000Z')
    world.faults.set([{ status: 503 }])
    expect((await sim.fetch(users()))!.status).toBe(200)
    expect(world.journal.find().map((entry) => entry.world)).toEqual(['world-1', 'world-1'])
    expect(sim.journal.find().map((entry) => entry.world)).toEqual([null, null, null])
    expect(world.worlds).toBe(sim.worlds)
    expect(sim.worlds.delete('world-1')).toBe(true)
    expect(sim.worlds.get('world-1')).toBeUndefined()
    expect(sim.worlds.delete('world-1')).toBe(false)
  })

  it('forks a clock object given as the clock option, so each world moves its own', async () => {
    const clock = toSimClock(CLOCK)
    const sim = createSimulator({ clock })
    const world = await sim.worlds.create()
    world.clock.advance('1h')
    expect(sim.now()).toBe('2026-01-01T00:00:00.000Z')
    expect(world.now()).toBe('2026-01-01T01:00:00.000Z')
  })

  it('stops at `max` worlds with a 409 until one goes; 0 turns worlds off', async () => {
    const sim = createSimulator({ clock: CLOCK, scenario: 'empty', worlds: { max: 2 } })
    await Promise.all([sim.worlds.create(), sim.worlds.create({ id: 'mine' })])
    const refused = sim.worlds.create()
    await expect(refused).rejects.toBeInstanceOf(ApiError)
    await expect(refused).rejects.toMatchObject({ status: 409, code: 'conflict', extra: { limit: 2 } })
    sim.worlds.delete('mine')
    await expect(sim.worlds.create()).resolves.toBeDefined()
    await expect(createSimulator({ worlds: { max: 0 } }).worlds.create()).rejects.toMatchObject({ status: 409 })
  })

  it('removes a world after `idle` real time without a request; each request starts the idle time again', async () => {
    let now = 1_000_000
    const sim = createSimulator({ clock: CLOCK, scenario: 'empty', worlds: { idle: '10s', now: () => now } })
    const kept = await sim.worlds.create({ id: 'kept' })
    await sim.worlds.create({ id: 'idle' })
    expect(sim.worlds.list()[0]).toMatchObject({ id: 'kept', createdAt: new Date(1_000_000).toISOString(), expiresAt: new Date(1_010_000).toISOString() })
    now += 6_000
    await sim.fetch(users({ 'x-mock-world': 'kept' }))
    now += 6_000
    expect(sim.worlds.list().map((world) => world.id)).toEqual(['kept'])
    const expired = await sim.fetch(users({ 'x-mock-world': 'idle' }))!
    expect(expired.status).toBe(404)
    expect(await expired.json()).toMatchObject({ error: 'not_found', world: 'idle', message: expect.stringContaining('10 s idle') })
    expect(sim.worlds.get('kept')).toBe(kept)
    now += 10_001
    expect(sim.worlds.get('kept')).toBeUndefined()
  })

  it('refuses a taken id, and a scenario that does not load, leaving no world behind', async () => {
    const sim = createSimulator({ clock: CLOCK, scenario: 'empty' })
    await sim.worlds.create({ id: 'x' })
    await expect(sim.worlds.create({ id: 'x' })).rejects.toMatchObject({ status: 409 })
    await expect(sim.worlds.create({ scenario: 'nope' })).rejects.toThrow(/Unknown scenario "nope"/)
    expect(sim.worlds.list().map((world) => world.id)).toEqual(['x'])
    expect(() => createSimulator({ worlds: { idle: 'soon' } })).toThrow(/Invalid duration "soon"/)
    expect(() => createSimulator({ worlds: { max: -1 } })).toThrow(/worlds\.max/)
  })
})

describe('requestedWorld', () => {
  const request = (headers: Record<string, string>) => new Request('http://x/', { headers })
  it('reads the header first, then the mock-world cookie', () => {
    expect(requestedWorld(request({}))).toBeNull()
    expect(requestedWorld(request({ 'x-mock-world': ' w1 ' }))).toBe('w1')
    expect(requestedWorld(request({ cookie: 'a=1; mock-world=w2; b=2' }))).toBe('w2')
    expect(requestedWorld(request({ cookie: 'not-mock-world=w3' }))).toBeNull()
    expect(requestedWorld(request({ 'x-mock-world': 'w1', cookie: 'mock-world=w2' }))).toBe('w1')
  })

  it('answers a wrong method with 405 whatever world is named (regression found by the fuzzer: an unknown world turned it into a 404)', async () => {
    const sim = createSimulator({ clock: CLOCK })
    for (const headers of [{}, { 'x-mock-world': 'no-such-world' }] as Array<Record<string, string>>) {
      for (const url of ['http://sim.test/core/users', 'http://sim.test/__mock/health']) {
        const reply = await sim.fetch(new Request(url, { method: 'DELETE', headers }))!
        expect(reply.status, `${url} ${JSON.stringify(headers)}`).toBe(405)
        expect(reply.headers.get('allow')).toMatch(/GET/)
      }
    }
    // A route that exists is still the unknown world's 404.
    expect((await sim.fetch(users({ 'x-mock-world': 'no-such-world' }))!).status).toBe(404)
  })
})
