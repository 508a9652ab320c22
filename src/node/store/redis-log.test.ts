import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commandCalls, redisCommand } from '../../../test/support/redis-commands.js'
import { startRedis, type RedisServer } from '../../../test/support/redis-server.js'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { RedisLog } from './redis-log.js'
import { LogTrimmedError, StoreUnavailableError } from './store-errors.js'
import { importRedisClient } from './redis-client.js'
import { OVERSIZED } from './redis-scripts.js'
import { compareIds } from '../../simulator/log/command-store.js'

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

/** A replica's log on `server`, for a family of its own unless `name` is given. */
async function replica(options: { server?: RedisServer; name?: string; timeoutMs?: number; onStatus?: (status: { up: boolean; reason?: string }) => void } = {}) {
  const log = await RedisLog.connect({ url: (options.server ?? redis).url, name: options.name ?? `family-${++family}`, timeoutMs: options.timeoutMs, onStatus: options.onStatus })
  opened.push(log)
  return log
}

/** Runs one command on a plain client of our own (to look behind the log's back). */
const command = (args: string[], server = redis) => redisCommand(server.url, args)

/** How many times Redis ran `name` since the last `CONFIG RESETSTAT` (subcommands counted in). */
const callsOf = (name: string) => commandCalls(redis.url, name)

/** Retries `run` until it resolves (Redis coming back), for at most `ms`. */
async function eventually<T>(run: () => Promise<T>, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    try {
      return await run()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}

/** How long `promise` took to settle (ms) and how (the error, if it rejected). */
async function timed(promise: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = performance.now()
  let error: unknown
  await promise.catch((caught) => (error = caught))
  return { ms: performance.now() - started, error }
}

describe('the log', () => {
  it('gives the entries of two replicas one order, which both read back the same', async () => {
    const name = `shared-${++family}`
    const [a, b] = [await replica({ name }), await replica({ name })]
    const ids = await Promise.all(Array.from({ length: 60 }, (_, index) => (index % 2 === 0 ? a : b).append(`command ${index}`)))
    const fromA = await a.readAfter('0-0')
    expect(await b.readAfter('0-0')).toEqual(fromA)
    expect(fromA).toHaveLength(60)
    for (let index = 1; index < fromA.length; index++) expect(compareIds(fromA[index - 1]!.id, fromA[index]!.id)).toBeLessThan(0)
    // Each append resolved with the id its entry has in the shared order.
    expect(new Map(fromA.map(({ id, entry }) => [entry, id]))).toEqual(new Map(ids.map((id, index) => [`command ${index}`, id])))
  })

  it('reads a large backlog in pages of 1,000, and honours count', async () => {
    const log = await replica()
    const ids = await Promise.all(Array.from({ length: 2_500 }, (_, index) => log.append(String(index))))
    await command(['CONFIG', 'RESETSTAT'])
    const all = await log.readAfter('0')
    expect(all.map(({ entry }) => entry)).toEqual(Array.from({ length: 2_500 }, (_, index) => String(index)))
    expect(await callsOf('xrange')).toBe(3)
    const some = await log.readAfter(ids[999]!, 1_200)
    expect(some.map(({ entry }) => entry)).toEqual(Array.from({ length: 1_200 }, (_, index) => String(1_000 + index)))
    expect(await log.readAfter(ids.at(-1)!)).toEqual([])
  })

  it('keeps a snapshot with its id, trims what it covers, keeps what follows, and never goes back', async () => {
    const name = `snapshots-${++family}`
    const [a, b] = [await replica({ name }), await replica({ name })]
    expect(await a.readSnapshot()).toBeUndefined()
    const ids: string[] = []
    for (let index = 1; index <= 10; index++) ids.push(await a.append(`c${index}`))
    expect(await a.writeSnapshot(ids[4]!, 'state after c5')).toBe(true)
    expect(await b.readSnapshot()).toEqual({ id: ids[4], data: 'state after c5' })
    expect(await command(['XLEN', `mam:{${name}}:log`])).toBe(5)
    expect((await b.readAfter(ids[4]!)).map(({ entry }) => entry)).toEqual(['c6', 'c7', 'c8', 'c9', 'c10'])
    // A replica behind the snapshot is told, not handed a log with a hole in it.
    await expect(b.readAfter(ids[2]!)).rejects.toThrow(LogTrimmedError)
    await expect(b.readAfter('0-0')).rejects.toThrow(/trimmed up to .* by a snapshot/)
    // An older or equal snapshot from a slower replica changes nothing.
    expect(await b.writeSnapshot(ids[2]!, 'state after c3')).toBe(false)
    expect(await b.writeSnapshot(ids[4]!, 'another state after c5')).toBe(false)
    expect(await a.readSnapshot()).toEqual({ id: ids[4], data: 'state after c5' })
    // Covering everything empties the stream; the last id stays.
    expect(await b.writeSnapshot(ids[9]!, 'state after c10')).toBe(true)
    expect(await command(['XLEN', `mam:{${name}}:log`])).toBe(0)
    expect(await a.lastId()).toBe(ids[9])
    expect(await a.readAfter(ids[9]!)).toEqual([])
    const next = await b.append('c11')
    expect(await a.readAfter(ids[9]!)).toEqual([{ id: next, entry: 'c11' }])
  })

  it('never sends an entry over maxEntryBytes whole: it comes back as oversized, with its length in bytes', async () => {
    const name = `bounded-${++family}`
    const log = await RedisLog.connect({ url: redis.url, name, maxEntryBytes: 10 })
    opened.push(log)
    const ids = [await log.append('0123456789'), await log.append('x'.repeat(11)), await log.append('é'.repeat(6))]
    const expected = [
      { id: ids[0], entry: '0123456789' },
      { id: ids[1], entry: `${OVERSIZED}11` },
      { id: ids[2], entry: `${OVERSIZED}12` },
    ]
    expect(await log.readAfter('0-0')).toEqual(expected)
    const appended = await log.appendAfter('y'.repeat(20), '0-0')
    expect(appended.entries).toEqual([...expected, { id: appended.id, entry: `${OVERSIZED}20` }])
    // Redis keeps it whole: another reader with no limit reads it.
    expect((await (await replica({ name })).readAfter(ids[1]!))[0]).toEqual({ id: ids[2], entry: 'é'.repeat(6) })
  })

  it('lets the first claim win and tells every replica which value that is', async () => {
    const name = `claims-${++family}`
    const replicas = await Promise.all(['a', 'b', 'c'].map(() => replica({ name })))
    const won = await Promise.all(replicas.map((log, index) => log.claim('meta', `fingerprint ${index}`)))
    expect(new Set(won).size).toBe(1)
    expect(won[0]).toMatch(/^fingerprint [012]$/)
    expect(await replicas[0]!.claim('meta', 'later')).toBe(won[0])
  })

  it("caps each world's journal near maxLen, numbers its entries from 1, reads the newest in order, and clears it", async () => {
    const name = `journal-${++family}`
    const [a, b] = [await replica({ name }), await replica({ name })]
    for (let index = 0; index < 500; index++) expect(await (index % 2 ? a : b).appendJournal(null, [`request ${index}`], 50)).toEqual([index + 1])
    expect(await a.appendJournal('w1', ['one', 'two'], 50, 60_000)).toEqual([1, 2])
    const length = Number(await command(['XLEN', `mam:{${name}}:journal`]))
    expect(length).toBeGreaterThanOrEqual(50)
    expect(length).toBeLessThanOrEqual(150)
    expect(await b.readJournal(null, 3)).toEqual([
      { id: 498, entry: 'request 497' },
      { id: 499, entry: 'request 498' },
      { id: 500, entry: 'request 499' },
    ])
    expect(Number(await command(['PTTL', `mam:{${name}}:journal:w1`]))).toBeGreaterThan(50_000)
    await a.clearJournal(null)
    expect(await b.readJournal(null, 10)).toEqual([])
    expect(await b.appendJournal(null, ['again'], 50)).toEqual([1])
    expect(await b.readJournal('w1', 10)).toEqual([
      { id: 1, entry: 'one' },
      { id: 2, entry: 'two' },
    ])
  })

  it('shares one tail check among the lastId calls of a turn, and each sees the appends made before it', async () => {
    const name = `tail-${++family}`
    const [a, b] = [await replica({ name }), await replica({ name })]
    expect(await a.lastId()).toBe('0-0')
    const first = await b.append('one')
    await command(['CONFIG', 'RESETSTAT'])
    const seen = await Promise.all(Array.from({ length: 25 }, () => a.lastId()))
    expect(seen).toEqual(Array(25).fill(first))
    expect(await callsOf('xrevrange')).toBe(1)
    // The next turn asks again, and sees the other replica's newer entry.
    const second = await b.append('two')
    expect(await Promise.all([a.lastId(), a.lastId()])).toEqual([second, second])
    expect(await callsOf('xrevrange')).toBe(2)
  })
})

describe('when Redis fails', () => {
  it('rejects within the timeout while Redis is stopped (SIGSTOP), and works again once it continues', async () => {
    const server = await startRedis()
    try {
      const statuses: Array<{ up: boolean; reason?: string }> = []
      const log = await replica({ server, timeoutMs: 400, onStatus: (status) => statuses.push(status) })
      await log.append('before')
      server.pause()
      const calls = [log.append('during'), log.lastId(), log.readAfter('0-0'), log.readSnapshot()].map(timed)
      for (const { ms, error } of await Promise.all(calls)) {
        expect(error).toBeInstanceOf(StoreUnavailableError)
        expect((error as Error).message).toMatch(/^Redis at redis:\/\/127\.0\.0\.1:\d+ did not answer within 400 ms\.$/)
        expect(ms).toBeLessThan(1_500)
      }
      expect(statuses).toEqual([{ up: false, reason: 'no answer within 400 ms' }])
      server.resume()
      await eventually(() => log.append('after'))
      expect(statuses).toEqual([{ up: false, reason: 'no answer within 400 ms' }, { up: true }])
      // The append that timed out was already on its way: Redis ran it when it continued.
      expect((await log.readAfter('0-0')).map(({ entry }) => entry)).toEqual(['before', 'during', 'after'])
      // Closing does not wait for a Redis that does not answer either.
      server.pause()
      expect((await timed(log.close())).ms).toBeLessThan(1_500)
    } finally {
      await server.cleanup()
    }
  })

  it('fails fast while Redis is down, reconnects by itself after a restart, and the append-only file kept every answered append', async () => {
    const server = await startRedis()
    try {
      const statuses: Array<{ up: boolean; reason?: string }> = []
      const log = await replica({ server, timeoutMs: 1_000, onStatus: (status) => statuses.push(status) })
      const ids = [await log.append('one'), await log.append('two')]
      await log.writeSnapshot(ids[0]!, 'after one')
      await server.kill()
      await eventually(async () => expect(statuses).toHaveLength(1), 2_000)
      const { ms, error } = await timed(log.lastId())
      expect(error).toBeInstanceOf(StoreUnavailableError)
      expect((error as Error).message).toMatch(/is unreachable \(/)
      expect(ms).toBeLessThan(500)
      expect(statuses).toHaveLength(1)
      expect(statuses[0]).toMatchObject({ up: false })
      await server.start()
      await eventually(() => log.lastId())
      expect(statuses.at(-1)).toEqual({ up: true })
      expect(await log.lastId()).toBe(ids[1])
      expect(await log.readAfter(ids[0]!)).toEqual([{ id: ids[1], entry: 'two' }])
      expect(await log.readSnapshot()).toEqual({ id: ids[0], data: 'after one' })
    } finally {
      await server.cleanup()
    }
  })
})

describe('connecting', () => {
  it('refuses an unreachable Redis with a one-line ConfigError within the timeout', async () => {
    const server = await startRedis()
    await server.cleanup()
    const { ms, error } = await timed(RedisLog.connect({ url: server.url, timeoutMs: 500 }))
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toBe(`Cannot reach Redis at ${server.url} within 500 ms (connect ECONNREFUSED 127.0.0.1:${server.port}).`)
    expect(ms).toBeLessThan(1_500)
  })

  it('refuses a Redis that accepts connections but does not answer', async () => {
    const server = await startRedis()
    try {
      server.pause()
      const { ms, error } = await timed(RedisLog.connect({ url: server.url, timeoutMs: 500 }))
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as Error).message).toMatch(/^Cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ within 500 ms \(no answer\)\.$/)
      expect(ms).toBeLessThan(1_500)
    } finally {
      await server.cleanup()
    }
  })

  it('refuses a wrong password at once, never showing it, and connects with the right one', async () => {
    const server = await startRedis({ args: ['--requirepass', 'right-secret'] })
    try {
      const url = `redis://127.0.0.1:${server.port}`
      const { ms, error } = await timed(RedisLog.connect({ url: url.replace('//', '//:wrong-secret@'), timeoutMs: 3_000 }))
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as Error).message).toMatch(/^Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ refused the connection: WRONGPASS [^\n]*\.$/)
      expect((error as Error).message).not.toContain('secret')
      expect(ms).toBeLessThan(1_000)
      await expect(RedisLog.connect({ url })).rejects.toThrow(/refused the connection: NOAUTH/)
      const ok = await RedisLog.connect({ url: url.replace('//', '//:right-secret@') })
      opened.push(ok)
      expect(await ok.append('x')).toMatch(/^\d+-\d+$/)
    } finally {
      await server.cleanup()
    }
  })

  it('refuses a family name that would break the keys', async () => {
    await expect(RedisLog.connect({ url: redis.url, name: 'a}b' })).rejects.toThrow(ConfigError)
  })

  it('says how to install the client when it is missing', async () => {
    const missing = () => Promise.reject(Object.assign(new Error("Cannot find package '@redis/client'"), { code: 'ERR_MODULE_NOT_FOUND' }))
    const error = await importRedisClient(missing).catch((caught) => caught)
    expect(error).toBeInstanceOf(ConfigError)
    expect(error.message).toBe('Sharing worlds through Redis needs the Redis client, which is not installed: run `npm i -D @redis/client`.')
    const broken = () => Promise.reject(new SyntaxError('Unexpected token'))
    await expect(importRedisClient(broken)).rejects.toThrow(SyntaxError)
  })
})
