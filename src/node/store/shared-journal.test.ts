import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commandCalls, redisCommand } from '../../../test/support/redis-commands.js'
import { type CliServer, startCli } from '../../../test/support/cli-server.js'
import { type RedisServer, startRedis } from '../../../test/support/redis-server.js'
import { ApiError } from '../../kernel/errors/api-error.js'
import type { SimRequest } from '../../kernel/http/sim-request.js'
import type { Dispatch } from '../../kernel/routing/dispatcher.js'
import type { Mount, RouteDefinition } from '../../kernel/routing/route.js'
import type { JournalEntry, JournalRecord } from '../../simulator/journal/journal-entry.js'
import { Journal } from '../../simulator/journal/journal.js'
import { RedisLog } from './redis-log.js'
import { RedisJournal, type RedisJournalOptions, replicaName } from './shared-journal.js'

let redis: RedisServer
const opened: RedisLog[] = []
let family = 0

beforeAll(async () => {
  redis = await startRedis()
})
afterAll(async () => {
  await Promise.all(opened.map((log) => log.close()))
  await redis?.cleanup()
})

/** A replica's shared journal, for a family of its own unless `name` is given. */
async function replica(options: { name?: string; server?: RedisServer; timeoutMs?: number } & Partial<RedisJournalOptions> = {}) {
  let status: { up: boolean; reason?: string } = { up: true }
  const log = await RedisLog.connect({
    url: (options.server ?? redis).url,
    name: options.name ?? `journal-${++family}`,
    timeoutMs: options.timeoutMs,
    onStatus: (now) => (status = now),
  })
  opened.push(log)
  return new RedisJournal(log, { applyingRemote: () => false, worldTtlMs: 60_000, status: () => status, ...options })
}

/** Runs one command on a plain client of our own (to look behind the journal's back). */
const command = (args: string[]) => redisCommand(redis.url, args)

/** How many times Redis ran `name` since the last `CONFIG RESETSTAT`. */
const callsOf = (name: string) => commandCalls(redis.url, name)

const texts = (rows: Array<{ id: number; text: string }>) => rows.map(({ id, text }) => `${id} ${text}`)

describe('RedisJournal', () => {
  it("numbers each world's entries from 1 for every replica, and starts again at 1 once emptied", async () => {
    const name = `journal-${++family}`
    const [a, b] = [await replica({ name }), await replica({ name })]
    expect(await a.append(null, 'one', 10)).toBe(1)
    expect(await b.append(null, 'two', 10)).toBe(2)
    expect(await b.append('w1', 'in w1', 10)).toBe(1)
    expect(texts(await a.read(null, 10))).toEqual(['1 one', '2 two'])
    expect(texts(await a.read('w1', 10))).toEqual(['1 in w1'])
    await b.clear(null, 'request')
    expect(await a.read(null, 10)).toEqual([])
    expect(await a.append(null, 'three', 10)).toBe(1)
    expect(texts(await b.read('w1', 10))).toEqual(['1 in w1'])
  })

  it('sends the entries of one turn in one round trip, in order, and reads exactly the newest `count`', async () => {
    const journal = await replica()
    await command(['CONFIG', 'RESETSTAT'])
    const numbers = await Promise.all(Array.from({ length: 250 }, (_, i) => journal.append(null, `entry ${i}`, 100)))
    expect(numbers).toEqual(Array.from({ length: 250 }, (_, i) => i + 1))
    expect(await callsOf('eval')).toBe(1)
    expect(texts(await journal.read(null, 3))).toEqual(['248 entry 247', '249 entry 248', '250 entry 249'])
    // Trimmed in Redis's whole blocks: about 100 kept, never fewer.
    const kept = (await journal.read(null, 1_000)).length
    expect(kept).toBeGreaterThanOrEqual(100)
    expect(kept).toBeLessThanOrEqual(200)
  })

  it('a clear removes what was appended before it in the same turn', async () => {
    const journal = await replica()
    const appended = journal.append(null, 'before the clear', 10)
    const cleared = journal.clear(null, 'request')
    await Promise.all([appended, cleared])
    expect(await journal.read(null, 10)).toEqual([])
  })

  it("leaves a reset's clear to the replica that accepted it, but a DELETE's clears wherever it arrives", async () => {
    const name = `journal-${++family}`
    let remote = false
    const [a, b] = [await replica({ name }), await replica({ name, applyingRemote: () => remote })]
    await a.append(null, 'before the reset', 10)
    await a.clear(null, 'command')
    await a.append(null, 'after the reset', 10)
    remote = true
    await b.clear(null, 'command')
    expect(texts(await b.read(null, 10))).toEqual(['1 after the reset'])
    await b.clear(null, 'request')
    expect(await a.read(null, 10)).toEqual([])
  })

  it("drops an isolated world's journal a while after its last entry, never the default world's", async () => {
    const name = `journal-${++family}`
    const journal = await replica({ name, worldTtlMs: 30_000 })
    await journal.append(null, 'default', 10)
    await journal.append('w1', 'isolated', 10)
    expect(Number(await command(['PTTL', `mam:{${name}}:journal`]))).toBe(-1)
    const ttl = Number(await command(['PTTL', `mam:{${name}}:journal:w1`]))
    expect(ttl).toBeGreaterThan(25_000)
    expect(ttl).toBeLessThanOrEqual(30_000)
  })

  it('names the replica by host and process, and a store that does not answer is a 503 for reads and DELETE, never for an answer', async () => {
    expect(replicaName()).toMatch(new RegExp(`^.+:${process.pid}$`))
    const server = await startRedis()
    try {
      const journal = await replica({ server, timeoutMs: 300 })
      server.pause()
      for (const call of [journal.read(null, 10), journal.clear(null, 'request')]) {
        const error = await call.then(
          () => undefined,
          (caught: unknown) => caught,
        )
        expect(error).toBeInstanceOf(ApiError)
        expect(error).toMatchObject({ status: 503, code: 'store_unavailable', message: expect.stringMatching(/no answer within 300 ms/) })
      }
      // Known down now: an entry is not even tried, so its answer does not wait.
      const started = performance.now()
      expect(await journal.append(null, 'during', 10)).toBeUndefined()
      expect(performance.now() - started).toBeLessThan(50)
    } finally {
      server.resume()
      await server.cleanup()
    }
  })

  it("gives each replica's Journal every replica's entries, redacted, with their replica", async () => {
    const name = `journal-${++family}`
    const journals = [await replica({ name, replica: 'one:1' }), await replica({ name, replica: 'two:2' })].map(
      (store) => new Journal({ size: 10, bodyLimit: 8192, world: null, share: { store } }),
    )
    const mount: Mount = { area: 'core', origin: null, prefix: '/core', routes: [] }
    const answered = (path: string, password: string): JournalRecord => {
      const request: SimRequest = {
        method: 'POST',
        url: `http://sim.test/core${path}`,
        headers: { get: () => null, entries: () => [] },
        bodyText: JSON.stringify({ password }),
        readText: async () => '',
      }
      const dispatch = { kind: 'route', route: { method: 'POST', path } as RouteDefinition, params: {}, url: new URL(request.url), mount } as Dispatch
      return { time: Date.UTC(2026, 0, 1), durationMs: 2, request, dispatch, response: { status: 201, headers: {}, body: '{}' }, fault: undefined }
    }
    await journals[0]!.record(answered('/users', 'first-secret'))
    await journals[1]!.record(answered('/orders', 'second-secret'))
    const listed = await journals[1]!.list({ method: 'POST' })
    expect(listed.map(({ id, path, replica, requestBody }) => ({ id, path, replica, requestBody }))).toEqual([
      { id: 1, path: '/core/users', replica: 'one:1', requestBody: { password: '[redacted]' } },
      { id: 2, path: '/core/orders', replica: 'two:2', requestBody: { password: '[redacted]' } },
    ])
    expect(JSON.stringify(await command(['XRANGE', `mam:{${name}}:journal`, '-', '+']))).not.toMatch(/first-secret|second-secret/)
  })
})

/**
 * Two CLI replicas on one Redis (`serve --store`), end to end: needs the CLI
 * bundle (`npm run bundle-cli`).
 */
describe('two replicas share one journal per world', () => {
  let replicas: CliServer[] = []
  beforeAll(async () => {
    const store = `${redis.url}/1`
    replicas.push(await startCli(['--store', store, '--seed', '1']))
    replicas.push(await startCli(['--store', store, '--seed', '1']))
  }, 60_000)
  afterAll(async () => {
    await Promise.all(replicas.map((server) => server.stop()))
    replicas = []
  })

  const send = async (server: CliServer, method: string, path: string, options: { world?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = {}
    if (options.world) headers['x-mock-world'] = options.world
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(`${server.url}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) })
    return { status: response.status, body: response.status === 204 ? null : ((await response.json()) as unknown) }
  }
  const journal = async (server: CliServer, query = '', world?: string) =>
    ((await send(server, 'GET', `/__mock/requests${query}`, { world })).body as { entries: JournalEntry[] }).entries
  const seen = (entries: JournalEntry[]) => entries.map(({ id, method, path, status, replica }) => `${id} ${method} ${path} ${status} ${replica?.split(':').at(-1)}`)

  it('lists the requests both replicas answered, with the replica that answered each, on either replica, at once', async () => {
    const [a, b] = replicas as [CliServer, CliServer]
    const [pidA, pidB] = [a.process.pid, b.process.pid]
    expect((await send(a, 'POST', '/__mock/reset')).status).toBe(200)
    expect((await send(a, 'GET', '/core/users?limit=1')).status).toBe(200)
    expect(
      (await send(b, 'POST', '/admin/api/v1.2/users', { body: { username: 'shared.journal', email: 'shared.journal@example.com', password: 'long-enough-secret' } })).status,
    ).toBe(201)
    expect((await send(b, 'GET', '/core/nowhere')).status).toBe(404)
    const expected = [`1 GET /core/users 200 ${pidA}`, `2 POST /admin/api/v1.2/users 201 ${pidB}`, `3 GET /core/nowhere 404 ${pidB}`]
    expect(seen(await journal(a))).toEqual(expected)
    expect(seen(await journal(b))).toEqual(expected)
    expect(seen(await journal(a, '?method=POST&path=/api/v1.2/users'))).toEqual([expected[1]])
    const [posted] = await journal(b, '?status=201')
    expect(posted!.requestBody).toMatchObject({ username: 'shared.journal', password: '[redacted]' })
  })

  it('empties it for both with a reset through one, and with DELETE through the other; entries made after stay', async () => {
    const [a, b] = replicas as [CliServer, CliServer]
    await send(a, 'GET', '/core/users?limit=1')
    expect((await send(b, 'POST', '/__mock/reset')).status).toBe(200)
    await send(b, 'GET', '/core/products/prod-1001')
    // Replica A applies B's reset only now, before it reads: the entry B made since stays.
    expect(seen(await journal(a))).toEqual([`1 GET /core/products/prod-1001 200 ${b.process.pid}`])
    expect((await send(a, 'POST', '/__mock/reset')).status).toBe(200)
    expect(await journal(b)).toEqual([])
    await send(b, 'GET', '/core/users?limit=2')
    expect((await send(a, 'DELETE', '/__mock/requests')).status).toBe(204)
    expect(await journal(b)).toEqual([])
    expect(await journal(a)).toEqual([])
  })

  it("keeps an isolated world's entries in that world, whichever replica answered", async () => {
    const [a, b] = replicas as [CliServer, CliServer]
    expect((await send(a, 'POST', '/__mock/worlds', { body: { id: 'journal-world' } })).status).toBe(201)
    await send(b, 'DELETE', '/__mock/requests')
    await send(b, 'GET', '/core/users?limit=1', { world: 'journal-world' })
    await send(a, 'GET', '/core/products/prod-1001', { world: 'journal-world' })
    await send(a, 'GET', '/core/users?limit=3')
    const inWorld = [`1 GET /core/users 200 ${b.process.pid}`, `2 GET /core/products/prod-1001 200 ${a.process.pid}`]
    expect(seen(await journal(a, '', 'journal-world'))).toEqual(inWorld)
    expect(seen(await journal(b, '', 'journal-world'))).toEqual(inWorld)
    expect((await journal(b, '', 'journal-world')).every((entry) => entry.world === 'journal-world')).toBe(true)
    expect(seen(await journal(b))).toEqual([`1 GET /core/users 200 ${a.process.pid}`])
    // A reset of the world through one replica empties the world's journal only.
    expect((await send(b, 'POST', '/__mock/reset', { world: 'journal-world' })).status).toBe(200)
    expect(await journal(a, '', 'journal-world')).toEqual([])
    expect(await journal(a)).toHaveLength(1)
  })
})
