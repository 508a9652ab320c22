import { expect, afterAll, beforeAll } from 'vitest'
import { type Balancer, startBalancer } from './balancer.js'
import { type CliServer, startCli } from './cli-server.js'
import { type RedisServer, startRedis } from './redis-server.js'

/** The options every replica of the tests starts with, as the one-process suites do (test/areas-http.test.ts). */
export const REPLICA_ARGS: readonly string[] = ['--seed', '1', '--clock', '2026-01-01T00:00:00Z', '--quiet']

export interface ReplicaSet {
  readonly redis: RedisServer
  /** The replicas started so far, in order (a stopped or killed one stays listed). */
  readonly replicas: CliServer[]
  /** Round-robin over the replicas started by `startReplicas`. */
  readonly balancer: Balancer
  /** One more replica on the same store, with the same options (`args` added): not behind the balancer until `balancer.use`. */
  add(args?: readonly string[]): Promise<CliServer>
  /** Stops the balancer, every replica and Redis, and removes Redis's folder. */
  close(): Promise<void>
}

/**
 * Starts Debian's Redis, `count` CLI replicas sharing it
 * (`serve --store <redis> ...REPLICA_ARGS ...args`) and a round-robin balancer
 * in front of them. Requires `npm run bundle-cli` (part of `npm test`).
 *
 * @example
 * const set = await startReplicas(3)
 * await fetch(`${set.balancer.url}/core/users`)
 * await set.close()
 */
export async function startReplicas(count: number, options: { args?: readonly string[]; redisArgs?: string[] } = {}): Promise<ReplicaSet> {
  const redis = await startRedis({ args: options.redisArgs })
  const replicas: CliServer[] = []
  const add = async (more: readonly string[] = []): Promise<CliServer> => {
    const replica = await startCli(['--store', redis.url, ...REPLICA_ARGS, ...(options.args ?? []), ...more], 30_000)
    replicas.push(replica)
    return replica
  }
  let balancer: Balancer | undefined
  const close = async (): Promise<void> => {
    await balancer?.close()
    await Promise.all(replicas.map((replica) => replica.stop()))
    await redis.cleanup()
  }
  try {
    // One after another: the first claims the store, and two cores start three processes no faster at once.
    for (let index = 0; index < count; index++) await add()
    balancer = await startBalancer(replicas.map((replica) => replica.url))
  } catch (error) {
    await close()
    throw error
  }
  return { redis, replicas, balancer, add, close }
}

/**
 * The world as one replica exports it (`GET /__mock/state`), as bytes: replicas agree when these are equal.
 *
 * @example
 * expect(await stateOf(b.url)).toBe(await stateOf(a.url))
 */
/**
 * `count` replicas for the tests of a `describe` block: started before them,
 * closed after; the getter gives the set once started.
 *
 * @example
 * const replicas = useReplicas(3)
 * it('…', () => fetch(replicas().balancer.url))
 */
export function useReplicas(count: number, options: { args?: readonly string[] } = {}): () => ReplicaSet {
  let set: ReplicaSet | undefined
  beforeAll(async () => {
    set = await startReplicas(count, options)
  }, 90_000)
  afterAll(async () => {
    await set?.close()
  })
  return () => set!
}

export async function stateOf(base: string, world?: string): Promise<string> {
  const response = await fetch(`${base}/__mock/state`, { headers: world === undefined ? {} : { 'x-mock-world': world }, signal: AbortSignal.timeout(30_000) })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`GET ${base}/__mock/state answered ${response.status}: ${text.slice(0, 300)}`)
  return text
}

/**
 * Two exported worlds are the same bytes; when they are not, the failure shows
 * their lengths and where they first differ, not megabytes of JSON.
 *
 * @example
 * expectSameState(await stateOf(b.url), await stateOf(a.url))
 */
export function expectSameState(actual: string, expected: string): void {
  if (actual === expected) return
  let at = 0
  while (at < Math.min(actual.length, expected.length) && actual[at] === expected[at]) at++
  const around = (text: string) => text.slice(Math.max(0, at - 100), at + 100)
  expect({ length: actual.length, firstDifference: around(actual) }).toEqual({ length: expected.length, firstDifference: around(expected) })
}
