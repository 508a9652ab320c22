import { describe, expect, it } from 'vitest'
import { ApiError } from '../../kernel/errors/api-error.js'
import { createSimulator } from '../create-simulator.js'

const CLOCK = '2026-01-01T00:00:00Z'
/** The largest population a scenario may ask for: 100,000 users per status. */
const HUGE = { accounts: { generate: { active: 100_000, inactive: 100_000, pending: 100_000 } } }
const users = (count: number) => ({ accounts: { generate: { active: count } } })
/** A scenario of users only: every other section empty. */
const only = (count: number) => ({ ...users(count), core: { products: [] }, general: { generate: 0 }, ledger: { tokens: [], validators: [] } })
const json = (method: string, path: string, body: unknown, world?: string) =>
  new Request(`http://sim.test${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(world ? { 'x-mock-world': world } : {}) },
    body: JSON.stringify(body),
  })

describe('worlds.maxRecords: what one isolated world may be seeded with', () => {
  it('refuses a world past it from the declared counts, before generating anything, and keeps nothing', async () => {
    const sim = createSimulator({ clock: CLOCK, scenario: 'empty' })
    expect(sim.worlds).toMatchObject({ maxRecords: 10_000, maxTotalRecords: 100_000, records: 0 })
    const started = performance.now()
    const refused = await sim.worlds.create({ id: 'huge', scenario: HUGE }).catch((error: unknown) => error)
    // Generating 300,000 users takes seconds; counting them, microseconds.
    expect(performance.now() - started).toBeLessThan(500)
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({ status: 413, code: 'world_too_large', extra: { limit: 10_000, records: 300_082 } })
    expect((refused as Error).message).toMatch(
      /at most 10,000 records \(--max-world-records; in-process: worlds\.maxRecords\); this one would hold 300,082 \(300,000 users, 40 resources, 24 products, 10 tokens, …\)\. Nothing was created or changed\.$/,
    )
    expect(sim.worlds.list()).toEqual([])
    expect(sim.worlds.records).toBe(0)
    // The id is free again: nothing half-made holds it.
    await expect(sim.worlds.create({ id: 'huge', scenario: 'empty' })).resolves.toBeDefined()
  })

  it('counts every section: generated pairs and resources too, not only users', async () => {
    const sim = createSimulator({ clock: CLOCK, scenario: 'empty', worlds: { maxRecords: 1_000 } })
    const pairs = { quantum: { generate: { spin: { superposition: 501 } } } }
    await expect(sim.worlds.create({ scenario: { ...only(0), ...pairs } })).rejects.toMatchObject({ code: 'world_too_large', extra: { records: 1_002 } })
    await expect(sim.worlds.create({ scenario: { ...only(0), general: { generate: 1_001 } } })).rejects.toMatchObject({ code: 'world_too_large' })
    // A named scenario counts like an object: the default one seeds 146 records.
    const world = await sim.worlds.create({ scenario: 'default' })
    expect(sim.worlds.list()).toMatchObject([{ id: world.worldId, records: 146 }])
    expect(Object.values(world.counts()).reduce((a, b) => a + b)).toBe(146)
  })

  it('lets a world through once the option is raised; the default world is never limited', async () => {
    const sim = createSimulator({ clock: CLOCK, scenario: users(12_000), worlds: { maxRecords: 20_000 } })
    await sim.ready
    expect(sim.counts().users).toBe(12_000)
    const world = await sim.worlds.create({ scenario: only(15_000) })
    expect(world.counts().users).toBe(15_000)
    expect(sim.worlds.records).toBe(15_000)
  })

  it('applies to a scenario loaded into a world, and to a state document put into one; the world is left as it was', async () => {
    const sim = createSimulator({ clock: CLOCK, scenarios: { big: only(2_000) }, worlds: { maxRecords: 1_000 } })
    const world = await sim.worlds.create({ id: 'w' })
    const before = world.exportState()
    await expect(world.loadScenario('big')).rejects.toMatchObject({ status: 413, code: 'world_too_large', extra: { limit: 1_000, records: 2_000 } })
    await expect(world.loadScenario(only(1_500))).rejects.toMatchObject({ code: 'world_too_large' })
    const state = {
      accounts: { users: Array.from({ length: 1_001 }, (_, i) => ({ id: `u${i}`, username: `user.${i}`, email: `u${i}@example.com`, status: 'active', created_at: CLOCK })) },
    }
    await expect(world.importState(state)).rejects.toMatchObject({ code: 'world_too_large', extra: { records: 1_001 } })
    expect(world.exportState()).toEqual(before)
    expect(sim.worlds.list()[0]!.records).toBe(146)
    // Within the limit both go through, and the world is charged what it holds now.
    await world.importState({ accounts: { users: state.accounts.users.slice(0, 900) } })
    expect(sim.worlds.list()[0]!.records).toBe(900)
    await world.loadScenario('empty')
    expect(sim.worlds.list()[0]!.records).toBe(0)
    // The default world takes both, whatever their size.
    await sim.loadScenario('big')
    await sim.importState(state)
    expect(sim.counts().users).toBe(1_001)
  })

  it('gives a failed load back: an invalid state document leaves the world charged what it holds', async () => {
    const sim = createSimulator({ clock: CLOCK, worlds: { maxRecords: 1_000, maxTotalRecords: 1_000 } })
    const world = await sim.worlds.create()
    await expect(world.importState({ accounts: { users: [{ id: 'u1' }] }, core: { products: new Array(600).fill({}) } })).rejects.toThrow(/Invalid state document/)
    expect(sim.worlds.records).toBe(146)
  })
})

describe('worlds.maxTotalRecords: what all isolated worlds together may be seeded with', () => {
  it('refuses the world that would pass it with a 409, until one is deleted or expires', async () => {
    let now = 0
    const sim = createSimulator({ clock: CLOCK, scenario: 'empty', worlds: { maxRecords: 6_000, maxTotalRecords: 10_000, idle: '1m', now: () => now } })
    await sim.worlds.create({ id: 'a', scenario: only(5_000) })
    await sim.worlds.create({ id: 'b', scenario: only(4_000) })
    const refused = await sim.worlds.create({ id: 'c', scenario: only(2_000) }).catch((error: unknown) => error)
    expect(refused).toMatchObject({ status: 409, code: 'conflict', extra: { limit: 10_000, records: 2_000, inUse: 9_000 } })
    expect((refused as Error).message).toMatch(/at most 10,000 records in all \(--max-total-world-records; in-process: worlds\.maxTotalRecords\); the others hold 9,000/)
    expect(sim.worlds.list().map((world) => world.id)).toEqual(['a', 'b'])
    // Reloading a world replaces what it held: it is not counted twice.
    await sim.worlds.get('b')!.loadScenario(only(5_000))
    await expect(sim.worlds.get('a')!.loadScenario(only(5_001))).rejects.toMatchObject({ status: 409 })
    sim.worlds.delete('a')
    expect(sim.worlds.records).toBe(5_000)
    await sim.worlds.create({ id: 'c', scenario: only(5_000) })
    now += 61_000
    expect(sim.worlds.records).toBe(0)
    await expect(sim.worlds.create({ scenario: only(6_000) })).resolves.toBeDefined()
  })

  it('counts worlds still starting: two at once cannot both take the last records', async () => {
    const sim = createSimulator({ clock: CLOCK, scenario: 'empty', worlds: { maxTotalRecords: 10_000 } })
    const results = await Promise.allSettled([sim.worlds.create({ scenario: only(6_000) }), sim.worlds.create({ scenario: only(6_000) })])
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect(sim.worlds.records).toBe(6_000)
  })
})

describe('the limits over the control API', () => {
  it('answer 413 world_too_large and 409 JSON errors, and show in GET /__mock/worlds', async () => {
    const sim = createSimulator({ clock: CLOCK, scenario: 'empty', scenarios: { big: only(3_000) }, worlds: { maxRecords: 2_000, maxTotalRecords: 3_000 } })
    const huge = await sim.fetch(json('POST', '/__mock/worlds', { scenario: HUGE }))!
    expect(huge.status).toBe(413)
    expect(await huge.json()).toMatchObject({ error: 'world_too_large', limit: 2_000, records: 300_082, message: expect.stringContaining('--max-world-records') })
    expect((await sim.fetch(json('POST', '/__mock/worlds', { id: 'w', scenario: only(1_500) }))!).status).toBe(201)
    const full = await sim.fetch(json('POST', '/__mock/worlds', { scenario: only(1_600) }))!
    expect(full.status).toBe(409)
    expect(await full.json()).toMatchObject({ error: 'conflict', limit: 3_000, records: 1_600, inUse: 1_500, message: expect.stringContaining('--max-total-world-records') })
    const loaded = await sim.fetch(new Request('http://sim.test/__mock/scenarios/big', { method: 'POST', headers: { 'x-mock-world': 'w' } }))!
    expect(loaded.status).toBe(413)
    const state = {
      accounts: { users: Array.from({ length: 2_001 }, (_, i) => ({ id: `u${i}`, username: `user.${i}`, email: `u${i}@example.com`, status: 'active', created_at: CLOCK })) },
    }
    expect((await sim.fetch(json('PUT', '/__mock/state', state, 'w'))!).status).toBe(413)
    // Without the header they act on the default world, which is not limited.
    expect((await sim.fetch(json('PUT', '/__mock/state', state))!).status).toBe(200)
    expect((await sim.fetch(new Request('http://sim.test/__mock/scenarios/big', { method: 'POST' }))!).status).toBe(200)
    const list = await (await sim.fetch(new Request('http://sim.test/__mock/worlds'))!).json()
    expect(list).toMatchObject({ maxRecords: 2_000, maxTotalRecords: 3_000, records: 1_500, worlds: [{ id: 'w', records: 1_500 }] })
  })

  it('are options with flags, checked like the others', () => {
    expect(() => createSimulator({ worlds: { maxRecords: -1 } })).toThrow(/worlds\.maxRecords.*0 or more/)
    expect(() => createSimulator({ worlds: { maxTotalRecords: 1.5 } })).toThrow(/worlds\.maxTotalRecords/)
  })
})
