import { BodyArena } from './body-arena.js'
import { bodyView } from './journal-body-view.js'
import * as layout from './journal-layout.js'
import { headerPairs, headerText } from './journal-headers.js'
import { Listeners } from '../events/listeners.js'
import type { JournalEntry, JournalRecord, JournalShare, RequestJournal, SharedJournal } from './journal-entry.js'
import { type JournalQuery, journalFilter, lastOf } from './journal-query.js'
import { readShared, sharedText } from './journal-shared-text.js'
import { redactHeaders, redactUrl } from './redact.js'

/** Entries kept unless the `journal.size` option says otherwise. */
export const DEFAULT_JOURNAL_SIZE = 1000

/** Characters of each request and response body kept in an entry unless `journal.bodyLimit` says otherwise. */
export const DEFAULT_JOURNAL_BODY_LIMIT = 8192

/**
 * A bounded ring of answered requests. Recording is cheap and leaves nothing
 * behind for the garbage collector, whatever was answered before: an entry is
 * a slot in typed arrays (numbers) and plain arrays (long-lived strings:
 * method, area, route pattern), its texts (URL, headers, bodies) go into a
 * `BodyArena` (see there why) but for cached response bodies (`Reply.bodyCached`),
 * which are kept by reference, and parsing, redaction and formatting wait for
 * `find`. Why no object per entry: reused entry objects changed shape between
 * POSTs and GETs, which deoptimised `record` (bench/README.md#journal-cost).
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
  readonly #text = new BodyArena()
  #ids: Float64Array
  #times: Float64Array
  #durations: Float64Array
  #statuses: Uint16Array
  #methods: string[] = []
  #mounts: Array<{ area: string; prefix: string }> = []
  #patterns: Array<string | null> = []
  #plain = layout.plainColumns()
  /** Response bodies kept by reference (`Reply.bodyCached`), per slot; the arena holds the others. */
  #cachedBodies: Array<string | undefined> = []
  /** Per slot and text (`slot * layout.TEXTS + layout.URL_TEXT`…): arena position, UTF-8 bytes (-1: none), characters before any cut. */
  #textAt: Float64Array
  #textBytes: Int32Array
  #textLength: Int32Array
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
    const slots = Math.min(this.capacity, layout.FIRST_SLOTS)
    this.#ids = new Float64Array(slots)
    this.#times = new Float64Array(slots)
    this.#durations = new Float64Array(slots)
    this.#statuses = new Uint16Array(slots)
    this.#textAt = new Float64Array(slots * layout.TEXTS)
    this.#textBytes = new Int32Array(slots * layout.TEXTS)
    this.#textLength = new Int32Array(slots * layout.TEXTS)
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
    const { time, durationMs, request, dispatch, response, bodyLengths } = record
    if (this.capacity === 0 || dispatch.mount === undefined) return undefined
    if (this.#held === this.capacity) this.#release(this.#next)
    else if (this.#held === this.#ids.length) this.#grow()
    const slot = this.#next
    this.#ids[slot] = ++this.#count
    this.#times[slot] = time
    this.#durations[slot] = durationMs
    this.#methods[slot] = request.method
    this.#mounts[slot] = dispatch.mount
    this.#patterns[slot] = dispatch.kind === 'route' ? dispatch.route.path : null
    // A network error (dropped connection) has status 0, as in HAR files.
    this.#statuses[slot] = response.status
    for (const name of layout.PLAIN_FIELDS) this.#plain[name][slot] = record[name]
    const texts = slot * layout.TEXTS
    this.#write(texts + layout.URL_TEXT, request.url)
    this.#write(texts + layout.HEADER_TEXT, headerText(request.headers))
    this.#keep(texts + layout.REQUEST_BODY, request.bodyText, false, bodyLengths?.request)
    this.#cachedBodies[slot] = this.#keep(texts + layout.RESPONSE_BODY, response.body ?? undefined, response.bodyCached, bodyLengths?.response)
    this.#next = (slot + 1) % this.capacity
    if (this.#held < this.capacity) this.#held++
    if (this.#textAt[texts + layout.HEADER_TEXT]! > this.#rebaseAt) this.#rebase()
    const store = this.#share?.store
    if (store !== undefined) return this.#publish(store, slot)
    // Only built when someone watches: recording stays allocation-free otherwise.
    if (this.#watchers.size > 0) this.#watchers.emit(this.#view(this.#entry(slot)))
    return undefined
  }

  watch(listener: (entry: JournalEntry) => void): () => void {
    return this.#watchers.add(listener)
  }

  /** This process's entries (while replicas share the journal, `list` has every replica's). */
  find(query: JournalQuery = {}): JournalEntry[] {
    const matching = this.#ordered()
      .map((slot) => this.#entry(slot))
      .filter(journalFilter(query))
    return lastOf(matching, query.limit).map((entry) => this.#view(entry))
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
    this.#text.clear()
    this.#methods = []
    this.#mounts = []
    this.#patterns = []
    this.#plain = layout.plainColumns()
    this.#cachedBodies = []
    this.#held = 0
    this.#next = 0
    this.#count = 0
  }

  /** Appends the entry in `slot` to the shared journal, then tells the watchers of it as shared (its number there, its replica). */
  async #publish(store: SharedJournal, slot: number): Promise<void> {
    const held = this.#entry(slot)
    const { id, ...entry } = { ...this.#view(held), replica: store.replica }
    const text = sharedText(held.prefix, entry)
    const number = await store.append(this.#world, text, this.capacity).catch(() => undefined)
    if (this.#watchers.size > 0) this.#watchers.emit({ id: number ?? id, ...entry })
  }

  /** Slots from the oldest entry to the newest. */
  #ordered(): number[] {
    const first = this.#held < this.capacity ? 0 : this.#next
    return Array.from({ length: this.#held }, (_, i) => (first + i) % this.capacity)
  }

  #entry(slot: number): layout.Held {
    // A kept entry's text is never released before the entry itself.
    const href = this.#read(slot * layout.TEXTS + layout.URL_TEXT)!
    return {
      id: this.#ids[slot]!,
      time: this.#times[slot]!,
      durationMs: this.#durations[slot]!,
      method: this.#methods[slot]!,
      area: this.#mounts[slot]!.area,
      prefix: this.#mounts[slot]!.prefix,
      pattern: this.#patterns[slot]!,
      status: this.#statuses[slot]!,
      href,
      pathname: new URL(href).pathname,
      slot,
    }
  }

  /** Frees the arena up to the end of the last text of the entry in `slot` (texts are written in order). */
  #release(slot: number): void {
    for (let text = slot * layout.TEXTS + layout.TEXTS - 1; text >= slot * layout.TEXTS; text--) {
      const bytes = this.#textBytes[text]!
      if (bytes >= 0) return this.#text.release(this.#textAt[text]! + bytes)
    }
  }

  /** Every held position moved down with the arena's. */
  #rebase(): void {
    const shift = this.#text.rebase()
    for (const slot of this.#ordered()) {
      for (let text = slot * layout.TEXTS; text < slot * layout.TEXTS + layout.TEXTS; text++) this.#textAt[text] = this.#textAt[text]! - shift
    }
  }

  /** Twice the slots (at most `capacity`), the entries kept where they are. */
  #grow(): void {
    const slots = Math.min(this.capacity, this.#ids.length * 2)
    const wider = <T extends Float64Array | Int32Array | Uint16Array>(from: T, make: new (length: number) => T, per = 1): T => {
      const to = new make(slots * per)
      to.set(from)
      return to
    }
    this.#ids = wider(this.#ids, Float64Array)
    this.#times = wider(this.#times, Float64Array)
    this.#durations = wider(this.#durations, Float64Array)
    this.#statuses = wider(this.#statuses, Uint16Array)
    this.#textAt = wider(this.#textAt, Float64Array, layout.TEXTS)
    this.#textBytes = wider(this.#textBytes, Int32Array, layout.TEXTS)
    this.#textLength = wider(this.#textLength, Int32Array, layout.TEXTS)
  }

  /**
   * A body, cut at the body limit; none when empty or when bodies are not kept.
   * A `cached` body that fits is returned, to be kept by reference: it lives on
   * in its cache anyway, so a copy would be wasted work (bench/README.md#journal-cost).
   */
  #keep(text: number, body: string | undefined, cached = false, length = body?.length ?? 0): string | undefined {
    if (body === undefined || body === '' || this.#bodyLimit === 0) this.#textBytes[text] = -1
    else if (cached && body.length <= this.#bodyLimit) {
      this.#textBytes[text] = -1
      return body
    } else this.#write(text, body.length <= this.#bodyLimit ? body : body.slice(0, this.#bodyLimit), Math.max(length, body.length))
    return undefined
  }

  #write(text: number, value: string, length = value.length): void {
    this.#textAt[text] = this.#text.write(value)
    this.#textBytes[text] = this.#text.lastBytes
    this.#textLength[text] = length
  }

  #read(text: number): string | undefined {
    const bytes = this.#textBytes[text]!
    return bytes < 0 ? undefined : this.#text.read(this.#textAt[text]!, bytes)
  }

  #view(entry: layout.Held): JournalEntry {
    const texts = entry.slot * layout.TEXTS
    const view: Partial<JournalEntry> = {
      id: entry.id,
      time: new Date(entry.time).toISOString(),
      method: entry.method,
      url: redactUrl(entry.href),
      path: entry.pathname,
      area: entry.area,
      route: entry.pattern === null ? null : entry.prefix + entry.pattern,
      status: entry.status,
      durationMs: Math.round(entry.durationMs * 100) / 100,
      world: this.#world,
    }
    for (const name of layout.PLAIN_FIELDS) view[name] = this.#plain[name][entry.slot] ?? null
    view.requestHeaders = redactHeaders({ entries: () => headerPairs(this.#read(texts + layout.HEADER_TEXT) ?? '') })
    view.requestBody = this.#bodyView(texts + layout.REQUEST_BODY)
    view.responseBody = this.#bodyView(texts + layout.RESPONSE_BODY, this.#cachedBodies[entry.slot])
    return view as JournalEntry
  }

  /** Parsed and redacted JSON when complete; otherwise redacted text, marked when cut. */
  #bodyView(text: number, cached?: string): unknown {
    const kept = cached ?? this.#read(text)
    return kept === undefined ? null : bodyView(kept, cached === undefined ? this.#textLength[text]! : cached.length)
  }
}
