import { createHash } from 'node:crypto'
import { ConfigError } from '../kernel/errors/config-error.js'
import { storeUnavailable } from '../kernel/errors/store-unavailable.js'
import type { SharedCommands } from '../simulator/command-log.js'
import type { Simulator } from '../simulator/create-simulator.js'
import { engineOf } from '../simulator/engine.js'
import { LogTrimmedError, RedisLog, StoreUnavailableError } from './redis-log.js'
import { RedisJournal } from './shared-journal.js'
import type { FamilyShared, FamilySnapshot } from '../simulator/world-family.js'
import type { SimulatorInstance } from '../simulator/simulator-instance.js'
import { describeStoreUrl, parseStoreUrl } from './store-url.js'

/** What the first replica of a store writes once, and every later one must match. */
interface StoreMeta {
  format: 1
  /** A hash of the options that shape worlds: replicas with other options would build other worlds. */
  fingerprint: string
  /** The instant the first replica seeded the starting scenario; the others seed as at the same instant. */
  startedAt: number
}

/** How a replica is doing with its store, for `/__mock/health` and the banner. */
export interface ReplicaStatus {
  /** The store, without its password: `redis://127.0.0.1:6379/0`. */
  store: string
  up: boolean
  /** Why it is down, in one line. */
  reason?: string
}

/** A replica joined to its store. */
export interface Replica {
  readonly store: string
  status(): ReplicaStatus
  /** Stops sharing: answers still due are waited for, then the connection closes. */
  close(): Promise<void>
}

/**
 * Joins a simulator to the replicas that share a Redis store
 * (`serve --store redis://host:port[/db]`): the first replica to arrive records
 * the options' fingerprint and its start instant; every replica then seeds the
 * starting scenario as at that instant, keeps its commands in the store's
 * stream and applies everyone's in the stream's order, catching up with every
 * command already there before this resolves (so a replica answers only once
 * it holds the shared worlds). Redis unreachable, or options other than the
 * first replica's, is a one-line `ConfigError`.
 *
 * @example
 * const replica = await joinReplicas(sim, { url: 'redis://127.0.0.1:6379', fingerprint })
 */
export async function joinReplicas(simulator: Simulator, options: { url: string; name?: string; fingerprint: string; timeoutMs?: number }): Promise<Replica> {
  const store = describeStoreUrl(parseStoreUrl(options.url))
  let status: ReplicaStatus = { store, up: true }
  const log = await RedisLog.connect({
    url: options.url,
    name: options.name,
    timeoutMs: options.timeoutMs,
    onStatus: ({ up, reason }) => {
      status = reason === undefined ? { store, up } : { store, up, reason }
      process.stderr.write(
        `multi-area-mock: ${up ? `the store ${store} is back` : `lost the store ${store} (${reason ?? 'no answer'}); writes and reads answer 503 until it is back`}\n`,
      )
    },
  })
  const engine = engineOf(simulator)
  try {
    const mine: StoreMeta = { format: 1, fingerprint: options.fingerprint, startedAt: Date.now() }
    const meta = JSON.parse(await log.claim('meta', JSON.stringify(mine))) as StoreMeta
    if (meta.fingerprint !== mine.fingerprint) {
      throw new ConfigError(
        `The store ${store} holds worlds started with other options (seed, scenario, areas, base URLs, clock, limits, faults or the JWT secret); start every replica with the same ones, or give this one another store.`,
      )
    }
    const family = engine.family
    const snapshots = new Snapshots(log, family)
    const kept = await log.readSnapshot()
    // A snapshot of every world, then the commands after it; without one, every command from the first replica's start.
    if (kept === undefined) await engine.restartAt(meta.startedAt)
    else await family.log.serial(() => family.restore(JSON.parse(kept.data) as FamilySnapshot))
    family.log.use(
      sharedCommands(log, () => status, snapshots),
      { applied: kept?.id, onApplied: (id, command) => snapshots.applied(id, command) },
    )
    await family.log.catchUp()
    family.shareExpiry()
    // Every world's journal lists what every replica answered for it; an isolated world's outlives it a while.
    const applyingRemote = () => family.log.applyingRemote
    family.journals.store = new RedisJournal(log, { applyingRemote, worldTtlMs: 2 * simulator.worlds.idleMs, status: () => status })
  } catch (error) {
    engine.family.journals.store = undefined
    engine.family.log.use(undefined)
    await log.close()
    if (error instanceof ConfigError) throw error
    throw new ConfigError(`Cannot join the replicas on ${store}: ${error instanceof Error ? error.message : String(error)}`)
  }
  // Idle isolated worlds go by commands, once for every replica; a replica's own use of a world reaches the others as a `touch`.
  const expiry = setInterval(() => {
    for (const command of engine.family.expiryCommands()) engine.family.log.submit(command, undefined).catch(() => undefined)
  }, expiryInterval(simulator.worlds.idleMs))
  expiry.unref()
  return {
    store,
    status: () => status,
    close: async () => {
      clearInterval(expiry)
      engine.family.journals.store = undefined
      engine.family.log.use(undefined)
      await log.close()
    },
  }
}

/** How often a replica tells the others which worlds it used and which are idle: a quarter of the idle time, between 1 s and 30 s. */
function expiryInterval(idleMs: number): number {
  return Math.min(30_000, Math.max(1_000, idleMs / 4))
}

/** Commands between two snapshots: a join then applies at most about this many, a Redis stream holds about this many more than the worlds. */
export const SNAPSHOT_EVERY = 10_000

/**
 * Snapshots of a family's worlds in Redis: every `SNAPSHOT_EVERY` commands the
 * replica whose command reaches the mark writes one (taken in the log's turn,
 * so it is exactly the worlds at that position) and the stream is trimmed
 * behind it; a replica that fell behind a trim restores the newest one.
 */
class Snapshots {
  readonly #log: RedisLog
  readonly #family: FamilyShared<SimulatorInstance>
  #since = 0
  #writing = false

  constructor(log: RedisLog, family: FamilyShared<SimulatorInstance>) {
    this.#log = log
    this.#family = family
  }

  /** A command of the shared log was applied (in the log's turn). */
  applied(id: string, command: { origin?: string }): void {
    if (++this.#since < SNAPSHOT_EVERY || this.#writing || !command.origin?.startsWith(`${this.#family.log.origin}:`)) return
    this.#since = 0
    this.#writing = true
    // Serialized now, between two commands; written while the next ones apply.
    const data = JSON.stringify(this.#family.snapshot())
    this.#log
      .writeSnapshot(id, data)
      .catch((error: unknown) =>
        process.stderr.write(`multi-area-mock: could not keep a snapshot in the store (${error instanceof Error ? error.message : String(error)}); trying again later.\n`),
      )
      .finally(() => (this.#writing = false))
  }

  /** The log was trimmed past this replica's position: the worlds as the newest snapshot has them, and its position. */
  async restoreNewest(): Promise<string> {
    const kept = await this.#log.readSnapshot()
    if (kept === undefined) throw new StoreUnavailableError('the store holds no snapshot for this replica to catch up with')
    await this.#family.restore(JSON.parse(kept.data) as FamilySnapshot)
    this.#family.log.rebase(kept.id)
    this.#since = 0
    return kept.id
  }
}

/** The Redis log as the simulator's shared store: a store that cannot answer is a 503 `store_unavailable`. */
function sharedCommands(log: RedisLog, status: () => ReplicaStatus, snapshots: Snapshots): SharedCommands {
  const answered = <T>(call: Promise<T>): Promise<T> =>
    call.catch((error: unknown) => {
      // A second trim while catching up (this replica is far behind): the client retries, the next turn catches up again.
      if (error instanceof StoreUnavailableError || error instanceof LogTrimmedError) throw storeUnavailable(status().reason ?? withoutFullStop(error.message))
      throw error
    })
  return {
    kind: 'shared',
    append: (entry) => answered(log.append(entry)),
    appendAfter: (entry, after) => answered(log.appendAfter(entry, after)),
    // Behind a trimmed log (this replica was away while others snapshotted): the newest snapshot, then what follows it.
    readAfter: (id) =>
      answered(
        log.readAfter(id).catch((error: unknown) => (error instanceof LogTrimmedError ? snapshots.restoreNewest().then((from) => log.readAfter(from)) : Promise.reject(error))),
      ),
    lastId: () => answered(log.lastId()),
    status: () => status(),
  }
}

/**
 * A hash of the options that shape worlds and answers: what every replica of a
 * store must share. Server-only settings (port, host, logging, tokens of the
 * control API, CORS) are left out; secrets only ever as part of the hash.
 *
 * @example
 * worldFingerprint({ seed: 7, scenario: 'default', port: 4000 }) === worldFingerprint({ seed: 7, scenario: 'default', port: 4001 })
 */
export function worldFingerprint(options: Record<string, unknown>, serverOnly: ReadonlySet<string>): string {
  const shaping = Object.fromEntries(Object.entries(options).filter(([key, value]) => !serverOnly.has(key) && typeof value !== 'function' && value !== undefined))
  return createHash('sha256').update(stableJson(shaping)).digest('hex')
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined && typeof item !== 'function')
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** A one-line reason as it goes inside a sentence of ours. */
function withoutFullStop(text: string): string {
  return text.endsWith('.') ? text.slice(0, -1) : text
}
