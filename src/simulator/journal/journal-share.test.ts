import { describe, expect, it } from 'vitest'
import type { Dispatch } from '../../kernel/routing/dispatcher.js'
import type { Mount, RouteDefinition } from '../../kernel/routing/route.js'
import type { SimRequest } from '../../kernel/http/sim-request.js'
import type { JournalEntry, JournalRecord, JournalShare, SharedJournal } from './journal-entry.js'
import type { JournalQuery } from './journal-query.js'
import { Journal } from './journal.js'

const admin: Mount = { area: 'admin', origin: null, prefix: '/admin', routes: [] }
const core: Mount = { area: 'core', origin: null, prefix: '/core', routes: [] }
const T0 = Date.UTC(2026, 0, 1)

/** An answered request: `pattern` is the matched route's (null: a 404). */
function answered(options: { mount?: Mount; path: string; pattern?: string | null; method?: string; status?: number; at?: number; body?: unknown }): JournalRecord {
  const mount = options.mount ?? admin
  const body = options.body === undefined ? undefined : JSON.stringify(options.body)
  const request: SimRequest = {
    method: options.method ?? 'GET',
    url: `http://sim.test${mount.prefix}${options.path}`,
    headers: { get: () => null, entries: () => [['authorization', 'Bearer secret-token']] },
    bodyText: body,
    readText: async () => body ?? '',
  }
  const pattern = options.pattern === undefined ? options.path : options.pattern
  const dispatch = (
    pattern === null
      ? { kind: 'error', mount, url: new URL(request.url) }
      : { kind: 'route', route: { method: request.method, path: pattern } as RouteDefinition, params: {}, url: new URL(request.url), mount }
  ) as Dispatch
  return { time: T0 + (options.at ?? 0), durationMs: 1, request, dispatch, response: { status: options.status ?? 200, headers: {}, body: '{"ok":true}' }, fault: undefined }
}

/** One store for every replica, as Redis is: each world's entries numbered from 1 after its last clear. */
class MemoryStore {
  readonly worlds = new Map<string | null, Array<{ id: number; text: string }>>()
  readonly numbers = new Map<string | null, number>()
  readonly clears: Array<{ world: string | null; cause: string; remote: boolean }> = []
  /** Whether a command another replica accepted is being applied (`CommandLog.applyingRemote`). */
  remote = false
  failing = false

  /** The shared journal of one replica. */
  replica(name: string): SharedJournal {
    return {
      replica: name,
      append: async (world, text, capacity) => {
        if (this.failing) return undefined
        const id = (this.numbers.get(world) ?? 0) + 1
        this.numbers.set(world, id)
        const rows = [...(this.worlds.get(world) ?? []), { id, text }]
        this.worlds.set(world, rows.slice(-capacity))
        return id
      },
      read: async (world, count) => (this.worlds.get(world) ?? []).slice(-count),
      clear: async (world, cause) => {
        this.clears.push({ world, cause, remote: this.remote })
        if (this.failing) throw new Error('store down')
        if (cause === 'command' && this.remote) return
        this.worlds.delete(world)
        this.numbers.delete(world)
      },
    }
  }
}

/** A replica's journal of `world`, sharing `store` as replica `name`. */
function replicaJournal(store: MemoryStore, name: string, world: string | null = null, size = 100): Journal {
  const share: JournalShare = { store: store.replica(name) }
  return new Journal({ size, bodyLimit: 8192, world, share })
}

describe('Journal shared by replicas', () => {
  it('without a shared journal, recording gives nothing to wait for and the route lists `find` at once', () => {
    const journal = new Journal({ size: 10, bodyLimit: 8192, world: null, share: {} })
    expect(journal.record(answered({ path: '/api/v1.2/users' }))).toBeUndefined()
    const listed = journal.list({ area: 'admin' })
    expect(Array.isArray(listed)).toBe(true)
    expect(listed).toEqual(journal.find({ area: 'admin' }))
    expect(journal.clear()).toBeUndefined()
    expect(journal.clearEverywhere()).toBeUndefined()
    expect(journal.size).toBe(0)
  })

  it("lists every replica's entries for the world, numbered by the store and naming their replica; `find` stays this process's", async () => {
    const store = new MemoryStore()
    const [a, b] = [replicaJournal(store, 'host:1'), replicaJournal(store, 'host:2')]
    await a.record(answered({ path: '/api/v1.2/users', method: 'POST', status: 201, body: { username: 'ada', password: 'hunter22' } }))
    await b.record(answered({ mount: core, path: '/users', at: 5 }))
    await a.record(answered({ mount: core, path: '/nowhere', pattern: null, status: 404, at: 9 }))
    const fromB = await b.list()
    expect(fromB.map(({ id, method, path, status, replica }) => ({ id, method, path, status, replica }))).toEqual([
      { id: 1, method: 'POST', path: '/admin/api/v1.2/users', status: 201, replica: 'host:1' },
      { id: 2, method: 'GET', path: '/core/users', status: 200, replica: 'host:2' },
      { id: 3, method: 'GET', path: '/core/nowhere', status: 404, replica: 'host:1' },
    ])
    expect(await a.list()).toEqual(fromB)
    // Kept as GET shows it: redacted before it leaves the process.
    expect(fromB[0]).toMatchObject({ requestBody: { username: 'ada', password: '[redacted]' }, requestHeaders: { authorization: 'Bearer [redacted]' } })
    expect(JSON.stringify([...store.worlds.values()])).not.toMatch(/hunter22|secret-token/)
    expect(b.find().map((entry) => [entry.path, entry.replica])).toEqual([['/core/users', undefined]])
  })

  it('filters what every replica recorded as `find` filters its own', async () => {
    const store = new MemoryStore()
    const journal = replicaJournal(store, 'host:1')
    await journal.record(answered({ path: '/api/v1.2/users', method: 'POST', status: 201 }))
    await journal.record(answered({ path: '/api/v1.2/users/42', pattern: '/api/v1.2/users/{userId}', status: 404, at: 10 }))
    await journal.record(answered({ mount: core, path: '/users', at: 20 }))
    await journal.record(answered({ mount: core, path: '/users/nobody', pattern: null, status: 404, at: 30 }))
    await journal.record(answered({ path: '/api/v1.2/users/7', pattern: '/api/v1.2/users/{userId}', method: 'DELETE', status: 204, at: 40 }))
    const queries: JournalQuery[] = [
      { area: 'core' },
      { method: 'delete' },
      { status: '4xx' },
      { status: 201 },
      { since: new Date(T0 + 20).toISOString() },
      { path: '/admin/api/v1.2/users/{id}' },
      { path: '/api/v1.2/users/{id}' },
      { path: '/users/*' },
      { path: '/core/users' },
      { path: '/admin/**', limit: 2 },
      { limit: 1 },
    ]
    for (const query of queries) {
      const shared = (await journal.list(query)).map(({ replica, ...entry }) => entry)
      expect(shared, JSON.stringify(query)).toEqual(journal.find(query))
      expect(shared.length, JSON.stringify(query)).toBeGreaterThan(0)
    }
  })

  it("keeps the newest `capacity` of the world's entries, and each world's to itself", async () => {
    const store = new MemoryStore()
    const [a, b] = [replicaJournal(store, 'host:1', null, 3), replicaJournal(store, 'host:2', null, 3)]
    const worldOnA = replicaJournal(store, 'host:1', 'w1', 3)
    for (let i = 0; i < 5; i++) await (i % 2 ? a : b).record(answered({ path: `/api/v1.2/users?i=${i}` }))
    await worldOnA.record(answered({ path: '/api/v1.2/users?in=w1' }))
    expect((await a.list()).map((entry) => [entry.id, entry.url.slice(-3), entry.world])).toEqual([
      [3, 'i=2', null],
      [4, 'i=3', null],
      [5, 'i=4', null],
    ])
    expect((await replicaJournal(store, 'host:2', 'w1', 3).list()).map((entry) => [entry.id, entry.url.slice(-5), entry.world])).toEqual([[1, 'in=w1', 'w1']])
  })

  it('tells its watchers of each entry as shared: the number the store gave it and its replica', async () => {
    const store = new MemoryStore()
    const [a, b] = [replicaJournal(store, 'host:1'), replicaJournal(store, 'host:2')]
    const heard: JournalEntry[] = []
    b.watch((entry) => heard.push(entry))
    await a.record(answered({ path: '/api/v1.2/users' }))
    const recorded = b.record(answered({ path: '/api/v1.2/products' }))
    expect(heard).toEqual([])
    await recorded
    expect(heard.map(({ id, path, replica }) => ({ id, path, replica }))).toEqual([{ id: 2, path: '/admin/api/v1.2/products', replica: 'host:2' }])
    expect(heard).toEqual((await b.list()).slice(1))
    // A store that cannot take the entry: the answer does not fail, the watchers still hear of it.
    store.failing = true
    await b.record(answered({ path: '/api/v1.2/orders' }))
    expect(heard.at(-1)).toMatchObject({ path: '/admin/api/v1.2/orders', replica: 'host:2' })
  })

  it('empties the store on a reset as the accepting replica does (not again when another applies it), and on DELETE wherever it arrives', async () => {
    const store = new MemoryStore()
    const [a, b] = [replicaJournal(store, 'host:1'), replicaJournal(store, 'host:2')]
    await a.record(answered({ path: '/api/v1.2/users' }))
    // Replica A accepted a reset: it empties the store, once.
    await a.clear()
    await b.record(answered({ path: '/api/v1.2/users?after=reset' }))
    // Replica B applies that reset later: what was recorded since stays.
    store.remote = true
    await b.clear()
    store.remote = false
    expect((await a.list()).map((entry) => [entry.id, entry.url.slice(-5)])).toEqual([[1, 'reset']])
    expect(store.clears).toEqual([
      { world: null, cause: 'command', remote: false },
      { world: null, cause: 'command', remote: true },
    ])
    // DELETE /__mock/requests while another replica's command is applied still empties it.
    store.remote = true
    await b.clearEverywhere()
    expect(await a.list()).toEqual([])
    expect(store.clears.at(-1)).toEqual({ world: null, cause: 'request', remote: true })
    // A store that does not answer: a reset still succeeds, a DELETE says so.
    store.failing = true
    await expect(a.clear()).resolves.toBeUndefined()
    await expect(a.clearEverywhere()).rejects.toThrow('store down')
  })
})
