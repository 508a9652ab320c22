import { getResponse, http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { call } from '../../test/support/http.js'
import { ConfigError } from '../kernel/errors/config-error.js'
import { createSimulator } from './create-simulator.js'
import { ScenarioError } from '../kernel/errors/scenario-error.js'

const CLOCK = '2026-01-01T00:00:00Z'
const newUser = (name: string) => ({ username: name, email: `${name}@example.com`, password: 'long-enough' })

describe('createSimulator', () => {
  // Each simulator answers on its own origin so several can share one msw server.
  const a = createSimulator({ seed: 1, clock: CLOCK, baseUrls: { admin: 'http://a.test/admin', core: 'http://a.test/core' } })
  const b = createSimulator({ seed: 1, clock: CLOCK, baseUrls: { admin: 'http://b.test/admin', core: 'http://b.test/core' } })
  const other = createSimulator({ seed: 2, clock: CLOCK, baseUrls: { admin: 'http://c.test/admin' }, areas: ['admin'] })
  const server = setupServer(...a.handlers, ...b.handlers, ...other.handlers)
  /** Requests no handler claimed (they then go to the network and fail). */
  const unhandled: string[] = []
  beforeAll(() => server.listen({ onUnhandledRequest: (request) => void unhandled.push(`${request.method} ${request.url}`) }))
  afterEach(() => server.resetHandlers())
  afterAll(() => server.close())

  it('gives the same world and the same answers for the same seed, scenario and requests (D24)', async () => {
    await Promise.all([a.reset(), b.reset()])
    const first = await call('http://a.test/admin/api/v1.2/users?limit=100')
    const second = await call('http://b.test/admin/api/v1.2/users?limit=100')
    expect(first.text).toBe(second.text)
    const createdA = await call('http://a.test/admin/api/v1.2/users', { method: 'POST', json: newUser('same.one') })
    const createdB = await call('http://b.test/admin/api/v1.2/users', { method: 'POST', json: newUser('same.one') })
    expect(createdA.text).toBe(createdB.text)
    expect(JSON.stringify(a.exportState())).toBe(JSON.stringify(b.exportState()))
  })

  it('gives the same ids whatever the clock: only timestamps follow it (D24)', async () => {
    const fixed = createSimulator({ seed: 9, clock: CLOCK, areas: ['admin'] })
    const real = createSimulator({ seed: 9, clock: 'system', areas: ['admin'] })
    await Promise.all([fixed.ready, real.ready])
    const ids = (sim: typeof fixed) => sim.exportState().accounts.users.map((user) => [user.id, user.username])
    expect(ids(real)).toEqual(ids(fixed))
    const create = (sim: typeof fixed) =>
      getResponse(
        sim.handlers,
        new Request('http://x/admin/api/v1.2/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(newUser('clockless')) }),
      )
    const [one, two] = await Promise.all([create(fixed), create(real)])
    expect((await one!.json()).id).toBe((await two!.json()).id)
  })

  it('gives a different world for a different seed', async () => {
    const first = await call('http://a.test/admin/api/v1.2/users?limit=5')
    const third = await call('http://c.test/admin/api/v1.2/users?limit=5')
    expect(first.body.map((user: { username: string }) => user.username)).not.toEqual(third.body.map((user: { username: string }) => user.username))
  })

  it('keeps simulators isolated', async () => {
    await Promise.all([a.reset(), b.reset()])
    await call('http://a.test/core/users', { method: 'POST', json: newUser('only.in.a') })
    expect(a.db.users.count()).toBe(49)
    expect(b.db.users.count()).toBe(48)
    expect((await call('http://b.test/core/users?limit=100')).body.some((user: { username: string }) => user.username === 'only.in.a')).toBe(false)
  })

  it('mounts only the chosen areas', async () => {
    expect(other.areas.map((area) => area.id)).toEqual(['admin'])
    expect(other.db).not.toHaveProperty('products')
    await expect(fetch('http://c.test/core/users')).rejects.toThrow()
    expect(unhandled).toEqual(['GET http://c.test/core/users'])
  })

  it('lets server.use() overrides win over the simulator', async () => {
    server.use(http.get('http://a.test/core/products/:id', () => HttpResponse.json({ error: 'service_unavailable', message: 'down' }, { status: 503 })))
    expect((await call('http://a.test/core/products/prod-1001')).status).toBe(503)
    server.resetHandlers()
    expect((await call('http://a.test/core/products/prod-1001')).status).toBe(200)
  })

  it('restores a snapshot exactly, so ids replay (D24)', async () => {
    await a.reset()
    const snapshot = a.snapshot()
    const created = await call('http://a.test/admin/api/v1.2/users', { method: 'POST', json: newUser('replayed') })
    await call(`http://a.test/admin/api/v1.2/users/${created.body.id}`, { method: 'DELETE' })
    await a.restore(snapshot)
    const again = await call('http://a.test/admin/api/v1.2/users', { method: 'POST', json: newUser('replayed') })
    expect(again.body).toEqual(created.body)
  })

  it('never exports a password or a hash through the state API, but snapshots can log in again', async () => {
    await a.reset()
    const state = JSON.stringify(a.exportState())
    expect(state).not.toMatch(/password/i)
    expect(state).not.toContain('Passw0rd!')
    const snapshot = JSON.stringify(a.snapshot())
    expect(snapshot).toContain('pbkdf2-hmac-sha256$')
    expect(snapshot).not.toContain('Passw0rd!')
  })

  it('replaces the world from a state document and keeps passwords of known ids', async () => {
    await a.reset()
    const state = a.exportState()
    const kept = state.accounts.users[0]!
    // `sim.db.users` never shows hashes; the snapshot (in-process only) does.
    const hashOf = (id: string) => a.snapshot().accounts.users.find((user) => user.id === id)?.password_hash
    const keptHash = hashOf(kept.id)
    await a.importState({
      ...state,
      accounts: {
        users: [
          ...state.accounts.users.slice(0, 2),
          { id: 'fresh', username: 'fresh.user', email: 'fresh@example.com', status: 'active', created_at: CLOCK, password: 'brand-new-pass' },
        ],
      },
    })
    expect(a.db.users.count()).toBe(3)
    expect(hashOf(kept.id)).toBe(keptHash)
    expect(hashOf('fresh')).toMatch(/^pbkdf2-hmac-sha256\$/)
    expect(a.db.users.all().find((user) => user.id === 'fresh')).not.toHaveProperty('password_hash')
    await expect(a.importState({ accounts: { users: [{ id: 'x', username: 'x!', email: 'bad', status: 'gone', created_at: 'now' }] } })).rejects.toBeInstanceOf(ScenarioError)
    expect(a.db.users.count()).toBe(3)
  })

  it('answers requests only after seeding, even when not awaited', async () => {
    const fresh = createSimulator({ seed: 1, clock: CLOCK, baseUrls: { admin: 'http://fresh.test/admin' }, areas: ['admin'] })
    server.use(...fresh.handlers)
    const reply = await call('http://fresh.test/admin/api/v1.2/users')
    expect(reply.headers.get('x-total-count')).toBe('48')
  })

  it('moves its clock in-process and over the control API; reset puts it back', async () => {
    const sim = createSimulator({ seed: 3, clock: CLOCK, baseUrls: { admin: 'http://clock.test/admin', core: 'http://clock.test/core' } })
    server.use(...sim.handlers)
    sim.clock.advance('1h')
    const created = await call('http://clock.test/admin/api/v1.2/users', { method: 'POST', json: newUser('later.one') })
    expect(created.body.created_at).toBe('2026-01-01T01:00:00.000Z')
    const moved = await call('http://clock.test/__mock/clock', { method: 'POST', json: { set: '2026-03-01T00:00:00Z', advance: '90s' } })
    expect(moved.status).toBe(200)
    expect(moved.body).toEqual({ now: '2026-03-01T00:01:30.000Z', fixed: true })
    const bad = await call('http://clock.test/__mock/clock', { method: 'POST', json: { set: 'tomorrow', advance: '5 weeks' } })
    expect(bad.status).toBe(400)
    expect(bad.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['advance', 'set'])
    expect((await call('http://clock.test/__mock/clock', { method: 'POST', json: {} })).status).toBe(400)
    expect((await call('http://clock.test/__mock/clock')).body.now).toBe('2026-03-01T00:01:30.000Z')
    const running = await call('http://clock.test/__mock/clock', { method: 'POST', json: { mode: 'system' } })
    expect(running.body.fixed).toBe(false)
    await sim.reset()
    expect(sim.clock.fixed).toBe(true)
    expect(sim.now()).toBe('2026-01-01T00:00:00.000Z')
  })

  it('refuses to move the clock out of the years 0000 to 9999, and moves nothing (regression found by the fuzzer: "+010000-…" timestamps)', async () => {
    const sim = createSimulator({ seed: 3, clock: CLOCK, baseUrls: { admin: 'http://far.test/admin', core: 'http://far.test/core' } })
    server.use(...sim.handlers)
    for (const body of [{ advance: 251_635_075_200_000 }, { advance: 1e20 }, { advance: '-2100000d' }, { mode: 'system', set: '9999-12-31T00:00:00Z', advance: '2d' }]) {
      const refused = await call('http://far.test/__mock/clock', { method: 'POST', json: body })
      expect(refused.status, JSON.stringify(body)).toBe(400)
      expect(refused.body.details).toEqual([{ path: 'advance', message: 'would move the clock out of the years 0000 to 9999' }])
    }
    expect(sim.now()).toBe('2026-01-01T00:00:00.000Z')
    expect(sim.clock.fixed).toBe(true)
    expect(() => sim.clock.advance(1e20)).toThrow(/years 0000 to 9999/)
    expect(sim.now()).toBe('2026-01-01T00:00:00.000Z')
  })
})

describe('createSimulator options', () => {
  it('refuses an invalid scenario at once, naming the JSON path and problem', () => {
    const attempt = () => createSimulator({ scenario: { accounts: { users: [{ username: 'ok.name', email: 'nope' }] } } })
    expect(attempt).toThrow(ScenarioError)
    expect(attempt).toThrow(/accounts\.users\.0\.email: must be a valid email address/)
  })

  it('refuses unknown scenarios, areas, clocks and base URLs with a ConfigError', () => {
    expect(() => createSimulator({ scenario: 'nope' })).toThrow(/Unknown scenario "nope". Available: default, empty, pending-users/)
    expect(() => createSimulator({ areas: ['nope' as never] })).toThrow(ConfigError)
    expect(() => createSimulator({ clock: 'yesterday' })).toThrow(ConfigError)
    expect(() => createSimulator({ baseUrls: { admin: 'not a url' } })).toThrow(ConfigError)
    expect(() => createSimulator({ root: ['core'], areas: ['admin'] })).toThrow(/not enabled/)
  })

  it('loads the built-in scenarios', async () => {
    const sim = createSimulator({ scenario: 'pending-users', clock: CLOCK })
    await sim.ready
    expect(sim.db.users.all().every((user) => user.status === 'pending')).toBe(true)
    expect(sim.db.users.all().some((user) => user.username === 'new.hire')).toBe(true)
    await sim.loadScenario('empty')
    // Nothing in any collection, whichever areas this build ships.
    expect(Object.entries(sim.counts()).filter(([, count]) => count !== 0)).toEqual([])
    await sim.reset()
    expect(sim.scenario).toBe('empty')
    expect(sim.counts().users).toBe(0)
    expect(sim.listScenarios().map((entry) => entry.name)).toEqual(['default', 'empty', 'pending-users', 'entangled-pairs'])
  })

  it('takes the seed from the scenario unless one is given', async () => {
    expect(createSimulator({ scenario: { seed: 77 } }).seed).toBe(77)
    expect(createSimulator({ scenario: { seed: 77 }, seed: 3 }).seed).toBe(3)
  })
})
