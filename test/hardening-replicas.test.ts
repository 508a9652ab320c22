/**
 * Replicas against what someone else writes into their Redis (issue 43): an
 * entry of the stream that is no command a replica made is skipped by every
 * replica, with one line on stderr, and the worlds go on; a store claimed by
 * another version of the package, or with other options, is refused in one
 * line; the fingerprint kept in Redis is salted. End to end: the real CLI and
 * Debian's redis-server.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PACKAGE_VERSION } from '../src/package-version.js'
import { type CliServer, runCli, startCli } from './support/cli-server.js'
import { redisCommand } from './support/redis-commands.js'
import { type RedisServer, startRedis } from './support/redis-server.js'
import { expectSameState, REPLICA_ARGS, stateOf } from './support/replicas.js'

const LOG = 'mam:{default}:log'
const META = 'mam:{default}:meta'
/** The clock every replica is pinned to (REPLICA_ARGS): a plausible instant for a command. */
const AT = Date.parse('2026-01-01T00:00:00Z')
/** Longest wait for one request: a replica that deadlocks fails the test instead of hanging it. */
const REQUEST_MS = 10_000
/** The largest entry a replica reads: twice the largest body (`PUT /__mock/state`, 64 MiB) and 1 MiB (docs/replicas.md). */
const ENTRY_LIMIT = 2 * 64 * 1024 * 1024 + 1024 * 1024

const command = (fields: Record<string, unknown>) => JSON.stringify({ world: null, method: 'POST', url: 'http://127.0.0.1:4000/core/users', at: AT, ...fields })

/** Entries no replica made, each of them once a replica turned every request into a 500 (or a deadlock) for good. */
const BAD_ENTRIES: Array<[string, () => string]> = [
  ['an object with only an instant', () => '{"at":1}'],
  ['a GET written as a command', () => command({ method: 'GET', url: 'http://127.0.0.1:4000/__mock/bundle' })],
  ['a body that is not a string', () => command({ body: { username: 'foreign', email: 'foreign@example.com', password: 'Passw0rd!long' } })],
  ['sealed passwords that are not strings', () => command({ body: '{"username":"x"}', sealed: { 'sealed:1': 42 } })],
  ['an instant no date has', () => command({ at: 1e300 })],
  ['a relative URL', () => command({ url: '/core/users' })],
  ['a request that changes no world (command: false)', () => command({ method: 'DELETE', url: 'http://127.0.0.1:4000/__mock/requests' })],
  ['an unknown kind', () => command({ kind: 'drop' })],
  ['text that is not JSON', () => '{"world":null,"method":"POST"'],
  ['an entry over the size limit', () => command({ body: 'x'.repeat(ENTRY_LIMIT) })],
]

describe('two replicas and a foreign writer of their stream', () => {
  let redis: RedisServer
  const replicas: CliServer[] = []
  const skipped: string[] = []
  let price = 100

  beforeAll(async () => {
    redis = await startRedis()
    for (let index = 0; index < 2; index++) replicas.push(await startCli(['--store', redis.url, ...REPLICA_ARGS], 30_000))
  }, 90_000)
  afterAll(async () => {
    for (const replica of replicas) await replica.stop()
    await redis?.cleanup()
  })

  it.each(BAD_ENTRIES)(
    '%s: skipped by both with one line each, and both go on answering and sharing writes',
    async (_, entry) => {
      const id = String(await redisCommand(redis.url, ['XADD', LOG, '*', 'e', entry()]))
      skipped.push(id)
      const [first, second] = [replicas[0]!, replicas[1]!]
      for (const replica of [first, second]) {
        expect((await get(replica.url, '/__mock/health')).status).toBe(200)
        expect((await get(replica.url, '/core/products/prod-1001')).status).toBe(200)
      }
      // A write on one, after the bad entry, is read on the other.
      price += 1
      const put = await send(first.url, 'PUT', '/core/products/prod-1001', { price, stock: 5 })
      expect(put.status).toBe(200)
      const read = await get(second.url, '/core/products/prod-1001')
      expect(read.status).toBe(200)
      expect((await read.json()).price).toBe(price)
      for (const replica of [first, second]) {
        const lines = linesOf(replica.stderr()).filter((line) => line.includes(id))
        expect(lines).toHaveLength(1)
        expect(lines[0]).toMatch(/^multi-area-mock: skipped the entry \S+ of the store redis:\/\/127\.0\.0\.1:\d+: .+; every replica skips it\.$/)
      }
    },
    60_000,
  )

  it('leaves both replicas with the same world, each with one stderr line per skipped entry and no other', async () => {
    expectSameState(await stateOf(replicas[1]!.url), await stateOf(replicas[0]!.url))
    for (const replica of replicas) expect(linesOf(replica.stderr())).toHaveLength(skipped.length)
  })

  it('lets a third replica join past them all, with the same world and one line for each', async () => {
    const third = await startCli(['--store', redis.url, ...REPLICA_ARGS], 30_000)
    replicas.push(third)
    expect((await get(third.url, '/__mock/health')).status).toBe(200)
    expectSameState(await stateOf(third.url), await stateOf(replicas[0]!.url))
    const lines = linesOf(third.stderr())
    expect(lines).toHaveLength(skipped.length)
    for (const id of skipped) expect(lines.filter((line) => line.includes(id))).toHaveLength(1)
  }, 60_000)
})

describe('a replica whose catch-up fails', () => {
  it('reports it through the internal-error line, once for each request that could not catch up', async () => {
    const redis = await startRedis()
    const replicas: CliServer[] = []
    try {
      for (let index = 0; index < 2; index++) replicas.push(await startCli(['--store', redis.url, ...REPLICA_ARGS], 30_000))
      const [first, second] = [replicas[0]!, replicas[1]!]
      // A snapshot someone else wrote, past every entry, that no replica can read: catching up with it fails.
      const ahead = `${Date.now() + 60_000}-0`
      await redisCommand(redis.url, ['HSET', 'mam:{default}:snapshot', 'id', ahead, 'data', 'not a snapshot', 'order', ahead.padStart(41, '0')])
      await redisCommand(redis.url, ['XADD', LOG, '*', 'e', command({ method: 'PUT', url: 'http://127.0.0.1:4000/core/products/prod-1001', body: '{"price":1}' })])
      const reply = await get(second.url, '/core/products/prod-1001')
      expect(reply.status).toBe(500)
      const lines = linesOf(second.stderr())
      expect(lines).toHaveLength(1)
      expect(lines[0]).toBe('multi-area-mock: internal error on GET /core/products/prod-1001: the snapshot in the store is not JSON: no replica wrote it')
      expect(first.process.exitCode).toBeNull()
    } finally {
      for (const replica of replicas) await replica.stop()
      await redis.cleanup()
    }
  }, 60_000)
})

describe("the store's fingerprint", () => {
  let redis: RedisServer
  let db = 3
  beforeAll(async () => {
    redis = await startRedis()
  })
  afterAll(async () => {
    await redis?.cleanup()
  })

  it('is salted per store and names the version: the same options give another value in another store', async () => {
    const secret = 'team-dev-secret'
    const stores = [`${redis.url}/1`, `${redis.url}/2`]
    const metas: Array<Record<string, unknown>> = []
    for (const store of stores) {
      const replica = await startCli(['--store', store, ...REPLICA_ARGS, '--jwt-secret', secret], 30_000)
      await replica.stop()
      metas.push(JSON.parse(String(await redisCommand(store, ['GET', META]))))
    }
    const [one, two] = metas as [Record<string, unknown>, Record<string, unknown>]
    expect(one).toMatchObject({ version: PACKAGE_VERSION })
    expect(one.salt).toMatch(/^[0-9a-f]{32,}$/)
    expect(one.salt).not.toBe(two.salt)
    expect(one.fingerprint).not.toBe(two.fingerprint)
    expect(JSON.stringify(one)).not.toContain(createHash('sha256').update(secret).digest('hex'))
  }, 60_000)

  it.each([
    [
      'another version',
      { format: 2, version: '0.1.0', salt: '00'.repeat(16), fingerprint: '00'.repeat(32), startedAt: AT },
      `multi-area-mock 0.1.0, and this replica is ${PACKAGE_VERSION}`,
    ],
    ['a version that kept no version (format 1)', { format: 1, fingerprint: '00'.repeat(32), startedAt: AT }, 'an earlier version of multi-area-mock'],
    ['something that is not multi-area-mock', 'not json', 'not one multi-area-mock wrote'],
  ])(
    'refuses a store claimed by %s, in one line',
    async (_, meta, message) => {
      const store = `${redis.url}/${db++}`
      await redisCommand(store, ['SET', META, typeof meta === 'string' ? meta : JSON.stringify(meta)])
      const { code, stdout, stderr } = await runCli(['serve', '--port', '0', '--store', store, ...REPLICA_ARGS], 30_000)
      expect(code).toBe(1)
      expect(stdout).toBe('')
      expect(linesOf(stderr)).toHaveLength(1)
      expect(stderr).toContain(message)
      expect(stderr).toContain(store)
    },
    60_000,
  )
})

function get(base: string, path: string): Promise<Response> {
  return fetch(`${base}${path}`, { signal: AbortSignal.timeout(REQUEST_MS) })
}

function send(base: string, method: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(REQUEST_MS) })
}

/** stderr's lines, after checking that none is a stack frame. */
function linesOf(text: string): string[] {
  expect(text).not.toMatch(/^\s+at\s/m)
  return text.split('\n').filter((line) => line.trim() !== '')
}
