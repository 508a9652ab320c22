import * as layout from './journal-layout.js'
import { Listeners } from '../events/listeners.js'
import type { JournalEntry, JournalRecord, JournalShare, RequestJournal, SharedJournal } from './journal-entry.js'
import { type JournalQuery, journalFilter, lastOf } from './journal-query.js'
import { readShared, sharedText } from './journal-shared-text.js'
import { JournalSlots } from './journal-slots.js'

/** Entries kept unless the `journal.size` option says otherwise. */
export const DEFAULT_JOURNAL_SIZE = 1000

/** Characters of each request and response body kept in an entry unless `journal.bodyLimit` says otherwise. */
export const DEFAULT_JOURNAL_BODY_LIMIT = 8192

/**
 * A bounded ring of answered requests. Recording is cheap and leaves nothing
 * behind for the garbage collector, whatever was answered before: an entry is
 * a slot of `JournalSlots` (typed arrays, plain arrays and a `BodyArena`), and
 * parsing, redaction and formatting wait for `find`. Why no object per entry:
 * reused entry objects changed shape between POSTs and GETs, which deoptimised
 * `record` (bench/README.md#journal-cost).
 *
 * While replicas share their worlds (`serve --store`), each entry is also
 * appended, as `find` shows it, to the family's `SharedJournal`, and `list`
 * (`GET /__mock/requests`) reads every replica's entries from there. Without
 * it, nothing of that runs.
 */
export class Journal implements RequestJournal {
  readonly capacity: number
  readonly #bodyLimit: number
  readonly #world: string | null
  readonly #share: JournalShare | undefined
  readonly #slots: JournalSlots
  /** Entries held. */
  #held = 0
  /** Slot the next entry goes to. */
  #next = 0
  #count = 0
  readonly #rebaseAt: number
  readonly #watchers = new Listeners<JournalEntry>('a journal watcher')

  /**
   * `share`: the family's link to a shared journal (one object for all its worlds, filled in once replicas join).
   * `rebaseAt` is for tests: a low value exercises the arena's rebase without writing 512 MiB first.
   */
  constructor(options: { size: number; bodyLimit: number; world: string | null; share?: JournalShare; rebaseAt?: number }) {
    this.capacity = options.size
    this.#bodyLimit = options.bodyLimit
    this.#world = options.world
    this.#share = options.share
    this.#rebaseAt = options.rebaseAt ?? layout.REBASE_AT
    this.#slots = new JournalSlots(Math.min(this.capacity, layout.FIRST_SLOTS), this.#bodyLimit)
  }

  get size(): number {
    return this.#held
  }

  /** Characters of each body an entry keeps (the `journal.bodyLimit` option). */
  get bodyLimit(): number {
    return this.#bodyLimit
  }

  /**
   * Keeps one answered request. While replicas share the journal, returns the
   * promise of its append to the store, which never rejects: the pipeline waits
   * for it before the answer leaves, so a read of the journal on any replica
   * right after the answer shows the entry. Otherwise returns nothing.
   */
  record(record: JournalRecord): Promise<void> | undefined {
    const mount = record.dispatch.mount
    if (this.capacity === 0 || mount === undefined) return undefined
    if (this.#held === this.capacity) this.#slots.release(this.#next)
    // Twice the slots (at most `capacity`) once they are all held.
    else if (this.#held === this.#slots.length) this.#slots.grow(Math.min(this.capacity, this.#slots.length * 2))
    const slot = this.#next
    const lastText = this.#slots.put(slot, ++this.#count, record, mount)
    this.#next = (slot + 1) % this.capacity
    if (this.#held < this.capacity) this.#held++
    if (lastText > this.#rebaseAt) this.#slots.rebase(this.#ordered())
    const store = this.#share?.store
    if (store !== undefined) return this.#publish(store, slot)
    // Only built when someone watches: recording stays allocation-free otherwise.
    if (this.#watchers.size > 0) this.#watchers.emit(this.#slots.view(this.#slots.entry(slot), this.#world))
    return undefined
  }

  watch(listener: (entry: JournalEntry) => void): () => void {
    return this.#watchers.add(listener)
  }

  /** This process's entries (while replicas share the journal, `list` has every replica's). */
  find(query: JournalQuery = {}): JournalEntry[] {
    const matching = this.#ordered()
      .map((slot) => this.#slots.entry(slot))
      .filter(journalFilter(query))
    return lastOf(matching, query.limit).map((entry) => this.#slots.view(entry, this.#world))
  }

  /**
   * What `GET /__mock/requests` answers: `find(query)`, or while replicas
   * share the journal, the matching entries among the newest `capacity` that
   * every replica recorded for this world, read from the store.
   */
  list(query: JournalQuery = {}): JournalEntry[] | Promise<JournalEntry[]> {
    const store = this.#share?.store
    if (store === undefined || this.capacity === 0) return this.find(query)
    return readShared(store, this.#world, this.capacity, query)
  }

  /**
   * Empties the journal, as a reset or a scenario load does. While replicas
   * share it, the store is emptied by the replica that accepted the reset or
   * load, not again by those that apply it after (see `SharedJournal.clear`);
   * the promise returned then never rejects (a store that does not answer keeps
   * its entries).
   */
  clear(): Promise<void> | undefined {
    this.#empty()
    return this.#share?.store?.clear(this.#world, 'command').catch(() => undefined)
  }

  /**
   * Empties the journal here and, while replicas share it, in the store, for
   * every replica (`DELETE /__mock/requests`); rejects when the store does not answer.
   */
  clearEverywhere(): Promise<void> | undefined {
    this.#empty()
    return this.#share?.store?.clear(this.#world, 'request')
  }

  #empty(): void {
    this.#slots.clear()
    this.#held = 0
    this.#next = 0
    this.#count = 0
  }

  /** Appends the entry in `slot` to the shared journal, then tells the watchers of it as shared (its number there, its replica). */
  async #publish(store: SharedJournal, slot: number): Promise<void> {
    const held = this.#slots.entry(slot)
    const { id, ...entry } = { ...this.#slots.view(held, this.#world), replica: store.replica }
    const text = sharedText(held.prefix, entry)
    const number = await store.append(this.#world, text, this.capacity).catch(() => undefined)
    if (this.#watchers.size > 0) this.#watchers.emit({ id: number ?? id, ...entry })
  }

  /** Slots from the oldest entry to the newest. */
  #ordered(): number[] {
    const first = this.#held < this.capacity ? 0 : this.#next
    return Array.from({ length: this.#held }, (_, i) => (first + i) % this.capacity)
  }
}
