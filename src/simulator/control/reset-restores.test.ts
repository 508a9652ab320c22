import { describe, expect, it, vi } from 'vitest'
import { createSimulator, type Simulator } from '../create-simulator.js'
import { SeededStates } from '../state/seeded-states.js'

const CLOCK = '2026-01-01T00:00:00Z'

async function send(sim: Simulator, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const init: RequestInit = { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } }
  if (body !== undefined) init.body = JSON.stringify(body)
  const response = await sim.fetch(new Request(`http://localhost${path}`, init))
  if (!response) throw new Error(`${method} ${path}: no route`)
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : undefined }
}

/** Writes in every area over HTTP, straight to `sim.db` (through @msw/data and into records themselves), and moves the clock. */
async function writeEverywhere(sim: Simulator, tag: string): Promise<void> {
  const someone = sim.db.users.findFirst((q) => q.where({ status: 'active' }))!
  // Area A and the shared accounts
  expect((await send(sim, 'POST', '/admin/api/v1.2/users', { username: `new.${tag}`, email: `new.${tag}@example.com`, password: 'correct-horse' })).status).toBe(201)
  const other = sim.db.users.all().find((user) => user.id !== someone.id)!
  expect((await send(sim, 'DELETE', `/admin/api/v1.2/users/${other.id}`)).status).toBe(204)
  // Area B: a product and ingested points
  expect((await send(sim, 'PUT', '/core/products/prod-1001', { stock: 1 })).status).toBe(200)
  expect((await send(sim, 'POST', '/core/ingest/data', [{ timestamp: CLOCK, value: 1.5, sensor_id: `s-${tag}` }])).status).toBeLessThan(300)
  // Area C: a new pair, a measurement (written into the record itself)
  const pair = await send(sim, 'POST', '/quantum/v1/entangle', { particle_type: 'electron' })
  expect(pair.status).toBe(201)
  const particle = sim.db.particles!.all()[0]!
  expect((await send(sim, 'POST', '/quantum/v1/measure', { particle_id: particle.id })).status).toBe(200)
  // Area D: login (last_login), a resource, a notification
  const login = await send(sim, 'POST', '/general/auth/login', { username: someone.username, password: 'Passw0rd!' })
  expect(login.status).toBe(200)
  const auth = { authorization: `Bearer ${login.body.token}` }
  expect((await send(sim, 'PUT', '/general/resources/1', { data: { name: `changed ${tag}` } }, auth)).status).toBe(200)
  expect((await send(sim, 'POST', '/general/notifications/send', { recipient_ids: [1], message: `hello ${tag}` }, auth)).status).toBe(202)
  // Straight to sim.db: @msw/data calls, and a record changed in place
  await sim.db.products!.create({ ...sim.db.products!.all()[0]!, id: `prod-${tag}` })
  await sim.db.tokens!.update((q) => q.where({ token_id: sim.db.tokens!.all()[0]!.token_id }), { data: (token) => void (token.name = `renamed ${tag}`) })
  sim.db.validators!.delete((q) => q.where({ address: sim.db.validators!.all()[0]!.address }))
  ;(sim.db.resources!.all()[2]!.data as Record<string, unknown>).touched = tag
  sim.db.delegations!.delete((q) => q.where({ transaction_hash: sim.db.delegations!.all()[0]!.transaction_hash }))
  sim.clock.advance('3h')
}

const written = (sim: Simulator) => JSON.stringify(sim.snapshot())

describe('reset() after writes', () => {
  it('gives back exactly the loaded state, whatever was written and however', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK })
    await sim.ready
    const loaded = written(sim)
    const state = JSON.stringify(sim.exportState())
    await writeEverywhere(sim, 'one')
    expect(written(sim)).not.toBe(loaded)
    await sim.reset()
    expect(written(sim)).toBe(loaded)
    expect(JSON.stringify(sim.exportState())).toBe(state)
    // Twice in a row, and after a reset that found nothing to restore.
    await writeEverywhere(sim, 'two')
    await sim.reset()
    await sim.reset()
    expect(written(sim)).toBe(loaded)
    expect(sim.clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z')
  })

  it('answers after a reset as right after the load: the same ids and the same pages', async () => {
    const sim = createSimulator({ seed: 3, clock: CLOCK })
    await sim.ready
    const first = await send(sim, 'POST', '/admin/api/v1.2/users', { username: 'replay', email: 'replay@example.com', password: 'correct-horse' })
    const page = await send(sim, 'GET', '/admin/api/v1.2/users?limit=100')
    await writeEverywhere(sim, 'x')
    await sim.reset()
    expect(await send(sim, 'POST', '/admin/api/v1.2/users', { username: 'replay', email: 'replay@example.com', password: 'correct-horse' })).toEqual(first)
    expect(await send(sim, 'GET', '/admin/api/v1.2/users?limit=100')).toEqual(page)
  })
})

describe('worlds seeded from a kept load', () => {
  it('are imported from the kept load, not seeded again, though every world keeps its history', async () => {
    // Seeding a world again costs ~3 ms where the kept load costs ~1 (bench/test-suite.js): a world per test pays it.
    const found = vi.spyOn(SeededStates.prototype, 'get')
    try {
      const sim = createSimulator({ seed: 1, clock: CLOCK, worlds: { max: 8 } })
      await sim.ready
      const world = await sim.worlds.create()
      expect(world.db.users.count()).toBe(sim.db.users.count())
      expect(found.mock.results.some((result) => result.value !== undefined)).toBe(true)
    } finally {
      found.mockRestore()
    }
  })

  it('equal a freshly seeded simulator, and stay independent of each other and of the default world', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK, worlds: { max: 8 } })
    await sim.ready
    const fresh = createSimulator({ seed: 1, clock: CLOCK })
    await fresh.ready
    const expected = written(fresh)
    expect(written(sim)).toBe(expected)

    const one = await sim.worlds.create()
    expect(written(one)).toBe(expected)
    await writeEverywhere(one, 'one')
    const two = await sim.worlds.create()
    expect(written(two)).toBe(expected)
    expect(written(sim)).toBe(expected)

    await writeEverywhere(sim, 'root')
    const three = await sim.worlds.create()
    expect(written(three)).toBe(expected)
    expect(written(two)).toBe(expected)

    await one.reset()
    expect(written(one)).toBe(expected)
    await sim.reset()
    expect(written(sim)).toBe(expected)
  })

  it('equal a fresh simulator for another scenario, seed or clock too', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK, worlds: { max: 8 } })
    const custom = { accounts: { generate: { active: 5 } }, general: { generate: 3, resources: [], notifications: [], auth: { expires_in: 60 } } }
    for (const create of [{ scenario: 'empty' }, { seed: 7 }, { clock: '2027-06-01T00:00:00Z' }, { scenario: custom }, { scenario: custom }]) {
      const world = await sim.worlds.create(create)
      const fresh = createSimulator({ seed: create.seed ?? 1, clock: create.clock ?? CLOCK, scenario: create.scenario ?? 'default' })
      await fresh.ready
      expect(written(world)).toBe(written(fresh))
      expect(world.scenario).toBe(fresh.scenario)
    }
  })

  it("log users in, refuse unknown ones, and keep a scenario's token lifetime", async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK, worlds: { max: 8 } })
    const scenario = {
      accounts: { users: [{ username: 'ada', email: 'ada@example.com', status: 'active' as const }] },
      general: { generate: 0, resources: [], notifications: [], auth: { expires_in: 60 } },
    }
    await sim.worlds.create({ scenario })
    const world = await sim.worlds.create({ scenario })
    const login = await send(world, 'POST', '/general/auth/login', { username: 'ada', password: 'Passw0rd!' })
    expect(login.status).toBe(200)
    expect(login.body.expires_in).toBe(60)
    expect((await send(world, 'POST', '/general/auth/login', { username: 'ada', password: 'wrong' })).status).toBe(401)
    expect((await send(world, 'POST', '/general/auth/login', { username: 'nobody', password: 'Passw0rd!' })).status).toBe(401)
  })
})
