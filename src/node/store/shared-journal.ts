import { hostname } from 'node:os'
import { storeUnavailable } from '../../kernel/errors/store-unavailable.js'
import type { SharedJournal } from '../../simulator/journal/journal-entry.js'
import type { RedisLog } from './redis-log.js'
import { StoreUnavailableError } from './store-errors.js'

// Node's own timer, taken when the module loads: a test that fakes timers must not stall the journal.
const schedule = globalThis.setImmediate

/** What the shared journal needs of the store. */
export type JournalLog = Pick<RedisLog, 'appendJournal' | 'readJournal' | 'clearJournal'>

export interface RedisJournalOptions {
  /** This replica's name in its entries (default `replicaName()`). */
  replica?: string
  /** `true` while a command another replica accepted is applied (`CommandLog.applyingRemote`). */
  applyingRemote: () => boolean
  /** An isolated world's journal is dropped this long after its last entry (ms): twice the worlds' idle time, say. */
  worldTtlMs: number
  /** Whether the store answers now, and why not: appends are not even tried while it does not. */
  status: () => { up: boolean; reason?: string }
}

/** Entries of one world appended in one turn of the event loop. */
interface Batch {
  texts: string[]
  settle: Array<(id: number | undefined) => void>
  capacity: number
}

/**
 * The journals of a family of worlds, shared by replicas through Redis
 * (`serve --store`): each world's journal is a capped stream of the store
 * (`RedisLog.appendJournal`) that every replica appends its entries to and
 * reads from. The entries of one turn go to Redis in one round trip per
 * world, and an append resolves once Redis holds it, so the pipeline can keep
 * an answer until its entry is there (read-your-writes on every replica). A
 * reset or load empties a world's journal once, on the replica that accepted
 * it; `DELETE /__mock/requests` empties it wherever it arrives.
 *
 * @example
 * engine.family.journals.store = new RedisJournal(log, { applyingRemote: () => engine.family.log.applyingRemote, worldTtlMs: 2 * sim.worlds.idleMs, status: () => status })
 */
export class RedisJournal implements SharedJournal {
  readonly replica: string
  readonly #log: JournalLog
  readonly #options: RedisJournalOptions
  readonly #batches = new Map<string | null, Batch>()
  #scheduled = false

  constructor(log: JournalLog, options: RedisJournalOptions) {
    this.#log = log
    this.#options = options
    this.replica = options.replica ?? replicaName()
  }

  append(world: string | null, text: string, capacity: number): Promise<number | undefined> {
    // The store is down: the answer does not wait for it (the entry stays in this replica's own journal).
    if (!this.#options.status().up) return Promise.resolve(undefined)
    return new Promise((resolve) => {
      let batch = this.#batches.get(world)
      if (batch === undefined) this.#batches.set(world, (batch = { texts: [], settle: [], capacity }))
      batch.texts.push(text)
      batch.settle.push(resolve)
      if (this.#scheduled) return
      this.#scheduled = true
      schedule(() => {
        this.#scheduled = false
        for (const world of [...this.#batches.keys()]) this.#send(world)
      })
    })
  }

  async read(world: string | null, count: number): Promise<Array<{ id: number; text: string }>> {
    this.#send(world)
    const rows = await this.#answered(this.#log.readJournal(world, count))
    return rows.map(({ id, entry }) => ({ id, text: entry }))
  }

  async clear(world: string | null, cause: 'request' | 'command'): Promise<void> {
    // The replica that accepted the reset emptied it; doing it again would wipe what was recorded since.
    if (cause === 'command' && this.#options.applyingRemote()) return
    // Entries recorded before the clear go first, on the same connection, so the clear removes them.
    this.#send(world)
    await this.#answered(this.#log.clearJournal(world))
  }

  /** Sends the world's entries of this turn now. */
  #send(world: string | null): void {
    const batch = this.#batches.get(world)
    if (batch === undefined) return
    this.#batches.delete(world)
    this.#log.appendJournal(world, batch.texts, batch.capacity, world === null ? 0 : this.#options.worldTtlMs).then(
      (ids) => batch.settle.forEach((settle, index) => settle(ids[index])),
      () => batch.settle.forEach((settle) => settle(undefined)),
    )
  }

  /** A store that cannot answer is a 503 `store_unavailable`. */
  #answered<T>(call: Promise<T>): Promise<T> {
    return call.catch((error: unknown) => {
      throw error instanceof StoreUnavailableError ? storeUnavailable(this.#options.status().reason ?? error.message.replace(/\.$/, '')) : error
    })
  }
}

/**
 * This process's name as a replica: its host name and process id, unique
 * among replicas whether they share a host or not.
 *
 * @example
 * replicaName() // 'ci-runner-3:48211'
 */
export function replicaName(): string {
  return `${hostname()}:${process.pid}`
}
