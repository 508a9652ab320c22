import { ApiError } from '../../kernel/errors/api-error.js'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { storeUnavailable } from '../../kernel/errors/store-unavailable.js'
import { DEFAULT_BODY_LIMIT } from '../../kernel/http/json/json-body.js'
import type { SharedCommands } from '../../simulator/log/command-store.js'
import { isCommand } from '../../simulator/log/command.js'
import type { Simulator } from '../../simulator/create-simulator.js'
import { engineOf, type SimulatorEngine } from '../../simulator/engine.js'
import { RedisLog } from './redis-log.js'
import { LogTrimmedError, StoreUnavailableError } from './store-errors.js'
import { RedisJournal } from './shared-journal.js'
import type { FamilyShared, FamilySnapshot } from '../../simulator/log/world-family.js'
import type { SimulatorInstance } from '../../simulator/simulator-instance.js'
import { claimStore } from './store-meta.js'
import { describeStoreUrl, parseStoreUrl } from './store-url.js'
import { entryBytes, entryLimit, readStreamEntry } from './stream-entry.js'

export { worldFingerprint } from './store-meta.js'

/** How a replica is doing with its store, for `/__mock/health` and the banner. */
export interface ReplicaStatus {
  /** The store, without its password: `redis://127.0.0.1:6379/0`. */
  store: string
  up: boolean
  /** Why it is down, in one line. */
  reason?: string
}

export interface JoinOptions {
  /** `redis://[user:password@]host[:port][/db]` */
  url: string
  /** The family of worlds in the store (`mam:{<name>}:…`), default `default`. */
  name?: string
  /** The fingerprint of the options that shape worlds, under a store's salt (`worldFingerprint`). */
  fingerprint: (salt: string) => string
  timeoutMs?: number
  /** Where the replica's lines go (store lost and back, an entry skipped, a snapshot not kept); default stderr, `multi-area-mock: ` before each. */
  report?: (line: string) => void
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
export async function joinReplicas(simulator: Simulator, options: JoinOptions): Promise<Replica> {
  const store = describeStoreUrl(parseStoreUrl(options.url))
  const report = options.report ?? ((line: string) => void process.stderr.write(`multi-area-mock: ${line}\n`))
  let status: ReplicaStatus = { store, up: true }
  const engine = engineOf(simulator)
  const entries = streamEntries(engine, store, report)
  const log = await RedisLog.connect({
    url: options.url,
    name: options.name,
    timeoutMs: options.timeoutMs,
    maxEntryBytes: entries.maxBytes,
    onStatus: ({ up, reason }) => {
      status = reason === undefined ? { store, up } : { store, up, reason }
      report(up ? `the store ${store} is back` : `lost the store ${store} (${reason ?? 'no answer'}); writes and reads answer 503 until it is back`)
    },
  })
  try {
    const { startedAt } = await claimStore(log, store, options.fingerprint)
    const family = engine.family
    const snapshots = new Snapshots(log, family, report)
    const kept = await log.readSnapshot()
    // A snapshot of every world, then the commands after it; without one, every command from the first replica's start.
    if (kept === undefined) await engine.restartAt(startedAt)
    else await family.log.serial(() => family.restore(snapshotOf(kept.data)))
    family.log.use(sharedCommands(log, { status: () => status, snapshots, entries }), { applied: kept?.id, onApplied: (id, command) => snapshots.applied(id, command) })
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
  readonly #report: (line: string) => void
  #since = 0
  #writing = false

  constructor(log: RedisLog, family: FamilyShared<SimulatorInstance>, report: (line: string) => void) {
    this.#log = log
    this.#family = family
    this.#report = report
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
      .catch((error: unknown) => this.#report(`could not keep a snapshot in the store (${error instanceof Error ? error.message : String(error)}); trying again later.`))
      .finally(() => (this.#writing = false))
  }

  /** The log was trimmed past this replica's position: the worlds as the newest snapshot has them, and its position. */
  async restoreNewest(): Promise<string> {
    const kept = await this.#log.readSnapshot()
    if (kept === undefined) throw new StoreUnavailableError('the store holds no snapshot for this replica to catch up with')
    await this.#family.restore(snapshotOf(kept.data))
    this.#family.log.rebase(kept.id)
    this.#since = 0
    return kept.id
  }
}

/** How a replica reads the entries of its stream: the longest one, and what each holds (`readStreamEntry`), a skipped one reported. */
interface StreamEntries {
  maxBytes: number
  decode: SharedCommands['decode']
}

function streamEntries(engine: SimulatorEngine, store: string, report: (line: string) => void): StreamEntries {
  const maxBytes = entryLimit(engine.options.limits?.bodyBytes ?? DEFAULT_BODY_LIMIT)
  // A write whose route changes no world (`DELETE /__mock/requests`) is never a command: the route table says so, the same on every replica.
  const changesWorld = (command: { method: string; url: string }) => {
    const dispatch = engine.dispatcher.dispatch(command)
    return dispatch?.kind !== 'route' || isCommand(dispatch)
  }
  return {
    maxBytes,
    decode: (id, entry) => {
      const read = readStreamEntry(entry, { maxBytes, changesWorld })
      if ('command' in read) return read.command
      report(`skipped the entry ${id} of the store ${store}: ${read.reason}; every replica skips it.`)
      return undefined
    },
  }
}

/** The Redis log as the simulator's shared store: a store that cannot answer is a 503 `store_unavailable`. */
function sharedCommands(log: RedisLog, parts: { status: () => ReplicaStatus; snapshots: Snapshots; entries: StreamEntries }): SharedCommands {
  const { status, snapshots, entries } = parts
  const answered = <T>(call: Promise<T>): Promise<T> =>
    call.catch((error: unknown) => {
      // A second trim while catching up (this replica is far behind): the client retries, the next turn catches up again.
      if (error instanceof StoreUnavailableError || error instanceof LogTrimmedError) throw storeUnavailable(status().reason ?? withoutFullStop(error.message))
      throw error
    })
  // An entry no replica would read (every replica would skip it, this one too) is never appended.
  const fits = <T>(entry: string, append: () => Promise<T>): Promise<T> => {
    const bytes = entryBytes(entry, entries.maxBytes)
    if (bytes <= entries.maxBytes) return answered(append())
    return Promise.reject(new ApiError(413, 'payload_too_large', `This change is ${bytes} bytes once kept, over the ${entries.maxBytes} the replicas' store takes.`))
  }
  return {
    kind: 'shared',
    append: (entry) => fits(entry, () => log.append(entry)),
    appendAfter: (entry, after) => fits(entry, () => log.appendAfter(entry, after)),
    decode: entries.decode,
    // Behind a trimmed log (this replica was away while others snapshotted): the newest snapshot, then what follows it.
    readAfter: (id) =>
      answered(
        log.readAfter(id).catch((error: unknown) => (error instanceof LogTrimmedError ? snapshots.restoreNewest().then((from) => log.readAfter(from)) : Promise.reject(error))),
      ),
    lastId: () => answered(log.lastId()),
    status: () => status(),
  }
}

/** The worlds a snapshot in the store holds; one that is not even JSON (someone else wrote it) says so in words of ours. */
function snapshotOf(data: string): FamilySnapshot {
  try {
    return JSON.parse(data) as FamilySnapshot
  } catch {
    throw new Error('the snapshot in the store is not JSON: no replica wrote it')
  }
}

/** A one-line reason as it goes inside a sentence of ours. */
function withoutFullStop(text: string): string {
  return text.endsWith('.') ? text.slice(0, -1) : text
}
