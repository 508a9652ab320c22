import { getResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { builtinScenarios } from '../simulator/state/builtin-scenarios.js'
import { createSimulator, type Simulator, type SimulatorOptions } from '../simulator/create-simulator.js'
import { persistIdentity } from './persist-identity.js'
import { type StorageLike, WorldPersistence } from './world-persistence.js'

const CLOCK = '2026-01-01T00:00:00Z'
const KEY = 'multi-area-mock'

/** Web Storage in memory; throws QuotaExceededError past `quota` characters, like browsers (~5 MiB). */
class FakeStorage implements StorageLike {
  readonly items = new Map<string, string>()
  constructor(public quota = Infinity) {}
  getItem(key: string): string | null {
    return this.items.get(key) ?? null
  }
  setItem(key: string, value: string): void {
    if (value.length > this.quota) throw new DOMException(`Setting the value of '${key}' exceeded the quota.`, 'QuotaExceededError')
    this.items.set(key, value)
  }
  removeItem(key: string): void {
    this.items.delete(key)
  }
}

/** One "page load": a simulator plus persistence, restored and attached, as the browser entry does. */
async function load(storage: StorageLike, options: SimulatorOptions = {}, warn = vi.fn()) {
  const settings = { seed: 1, clock: CLOCK, ...options }
  const sim = createSimulator(settings)
  const scenarioName = typeof settings.scenario === 'string' ? settings.scenario : 'default'
  const persistence = new WorldPersistence(sim, {
    storage,
    key: KEY,
    storageName: 'sessionStorage',
    identity: persistIdentity(settings, scenarioName, builtinScenarios[scenarioName]!),
    warn,
  })
  const outcome = await persistence.restore()
  if (outcome === 'fresh') persistence.save()
  persistence.attach()
  return { sim, persistence, outcome, warn }
}

async function send(sim: Simulator, method: string, path: string, body?: unknown): Promise<Response> {
  const init: RequestInit = body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
  const response = await getResponse(sim.handlers, new Request(`http://app.test${path}`, init))
  if (!response) throw new Error(`no answer for ${method} ${path}`)
  return response
}

const createUser = (sim: Simulator, username: string) => send(sim, 'POST', '/admin/api/v1.2/users', { username, email: `${username}@example.com`, password: 'Passw0rd!' })
const usernames = (sim: Simulator) => sim.db.users.all().map((user) => user.username)

describe('WorldPersistence', () => {
  it('saves after every write and restores the whole world on the next load, ids and passwords included', async () => {
    const storage = new FakeStorage()
    const first = await load(storage)
    expect(first.outcome).toBe('fresh')
    await createUser(first.sim, 'saved.one')
    await send(first.sim, 'PUT', '/core/products/prod-1001', { price: 3.5 })
    await send(first.sim, 'POST', '/__mock/clock', { advance: '2h' })

    const second = await load(storage)
    expect(second.outcome).toBe('restored')
    expect(usernames(second.sim)).toContain('saved.one')
    expect(second.sim.db.products!.findFirst((q) => q.where({ id: 'prod-1001' }))?.price).toBe(3.5)
    expect(second.sim.now()).toBe('2026-01-01T02:00:00.000Z')
    // The id generator and random source came back too: both loads create the same next user.
    const [a, b] = await Promise.all([createUser(first.sim, 'next.one'), createUser(second.sim, 'next.one')])
    expect((await a.json()).id).toBe((await b.json()).id)
    // Snapshots keep password hashes, so restored users can still log in (Area D).
    expect(second.sim.snapshot().accounts.users.every((user) => user.password_hash?.startsWith('pbkdf2-hmac-sha256$'))).toBe(true)
    expect(second.warn).not.toHaveBeenCalled()
  })

  it('returns to the seeded scenario after reset(), and reset() afterwards still works', async () => {
    const storage = new FakeStorage()
    const first = await load(storage)
    await createUser(first.sim, 'gone.after.reset')
    await send(first.sim, 'POST', '/__mock/reset')
    const second = await load(storage)
    expect(usernames(second.sim)).not.toContain('gone.after.reset')
    await createUser(second.sim, 'then.reset')
    await second.sim.reset()
    expect(second.sim.db.users.count()).toBe(48)
    expect(second.sim.now()).toBe('2026-01-01T00:00:00.000Z')
  })

  it('starts fresh for another seed, scenario, clock or set of areas, and overwrites the old save', async () => {
    const storage = new FakeStorage()
    const first = await load(storage)
    await createUser(first.sim, 'seed.one.only')
    for (const options of [{ seed: 2 }, { scenario: 'pending-users' }, { clock: '2027-01-01T00:00:00Z' }, { areas: ['admin' as const] }]) {
      const other = await load(storage, options)
      expect(other.outcome, JSON.stringify(options)).toBe('fresh')
      expect(usernames(other.sim)).not.toContain('seed.one.only')
    }
    expect((await load(storage)).outcome).toBe('fresh')
  })

  it('keeps a scenario loaded at run time across the reload, and reset() returns to it', async () => {
    const storage = new FakeStorage()
    const first = await load(storage)
    await send(first.sim, 'POST', '/__mock/scenarios/pending-users')
    await createUser(first.sim, 'on.pending')
    const second = await load(storage)
    expect(second.outcome).toBe('restored')
    expect(second.sim.scenario).toBe('pending-users')
    expect(usernames(second.sim)).toContain('on.pending')
    await second.sim.reset()
    expect(usernames(second.sim)).toContain('new.hire')
    expect(usernames(second.sim)).not.toContain('on.pending')
  })

  it('warns once when the storage is full, drops the stale save and keeps answering', async () => {
    const storage = new FakeStorage()
    const first = await load(storage)
    storage.quota = 1000
    expect((await createUser(first.sim, 'too.much')).status).toBe(201)
    expect((await createUser(first.sim, 'even.more')).status).toBe(201)
    expect(first.warn).toHaveBeenCalledTimes(1)
    expect(first.warn.mock.calls[0]![0]).toMatch(
      /^\[multi-area-mock\] sessionStorage is full: the world \(\d+ KiB as JSON\) was not saved\. The app keeps working; a reload starts from the seeded scenario/,
    )
    // No older copy comes back as if it were current.
    expect(storage.getItem(KEY)).toBeNull()
    expect(first.persistence.save()).toBe(false)
    storage.quota = Infinity
    expect(first.persistence.save()).toBe(true)
    expect(usernames((await load(storage)).sim)).toContain('even.more')
  })

  it('drops an unreadable or outdated save with one warning and seeds instead', async () => {
    const storage = new FakeStorage()
    storage.setItem(KEY, '{not json')
    const broken = await load(storage)
    expect(broken.outcome).toBe('fresh')
    expect(broken.warn.mock.calls[0]![0]).toMatch(/unreadable/)
    expect(broken.sim.db.users.count()).toBe(48)

    const identity = persistIdentity({ seed: 1, clock: CLOCK }, 'default', builtinScenarios.default!)
    storage.setItem(KEY, JSON.stringify({ format: 1, identity, scenario: 'default', clock: { frozenAt: 0, offset: 0 }, world: { accounts: { users: [{ id: 1 }] } } }))
    const outdated = await load(storage)
    expect(outdated.outcome).toBe('fresh')
    expect(outdated.warn.mock.calls[0]![0]).toMatch(/does not fit this version/)
    expect(outdated.sim.db.users.count()).toBe(48)
    expect(outdated.sim.now()).toBe('2026-01-01T00:00:00.000Z')
  })

  it('works without persistence where the storage refuses access', async () => {
    const refusing: StorageLike = {
      getItem: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError')
      },
      setItem: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError')
      },
      removeItem: () => undefined,
    }
    const { sim, outcome, warn } = await load(refusing)
    expect(outcome).toBe('fresh')
    expect((await createUser(sim, 'no.storage')).status).toBe(201)
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      '[multi-area-mock] Could not read the saved world from sessionStorage (The operation is insecure.); starting from the seeded scenario.',
      '[multi-area-mock] Could not save the world to sessionStorage (The operation is insecure.). The app keeps working; a reload starts from the seeded scenario.',
    ])
  })
})

describe('persistIdentity', () => {
  it('is the same for the same start options and differs when the seed, scenario content, clock or areas do', () => {
    const base = persistIdentity({ seed: 1 }, 'default', builtinScenarios.default!)
    expect(persistIdentity({ seed: 1, clock: 'system' }, 'default', builtinScenarios.default!)).toBe(base)
    expect(persistIdentity({ seed: 1, areas: ['core', 'admin'] }, 'default', builtinScenarios.default!)).toBe(
      persistIdentity({ seed: 1, areas: ['admin', 'core'] }, 'default', builtinScenarios.default!),
    )
    const others = [
      persistIdentity({}, 'default', builtinScenarios.default!),
      persistIdentity({ seed: 2 }, 'default', builtinScenarios.default!),
      persistIdentity({ seed: 1 }, 'default', { ...builtinScenarios.default, description: 'edited' }),
      persistIdentity({ seed: 1, clock: CLOCK }, 'default', builtinScenarios.default!),
      persistIdentity({ seed: 1, areas: ['admin'] }, 'default', builtinScenarios.default!),
    ]
    expect(new Set([base, ...others]).size).toBe(others.length + 1)
  })
})
