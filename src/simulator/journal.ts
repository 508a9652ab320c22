import { compileRouteMatcher } from '../kernel/routing/route-matcher.js'
import { BodyArena } from './body-arena.js'
import { headerPairs, headerText } from './journal-headers.js'
import { Listeners } from './listeners.js'
import type { JournalEntry, JournalRecord, RequestJournal } from './journal-entry.js'
import { instant, type JournalQuery, statusFilter } from './journal-query.js'
import { redactHeaders, redactJson, redactJsonText, redactUrl } from './redact.js'

/** Entries kept unless the `journal.size` option says otherwise. */
export const DEFAULT_JOURNAL_SIZE = 1000

/** Characters of each request and response body kept in an entry unless `journal.bodyLimit` says otherwise. */
export const DEFAULT_JOURNAL_BODY_LIMIT = 8192

/** An entry's texts, in the order they are written to the arena. */
const URL_TEXT = 0
const HEADER_TEXT = 1
const REQUEST_BODY = 2
const RESPONSE_BODY = 3
const TEXTS = 4
/** Arena positions are moved back down past this (see `BodyArena.rebase`). */
const REBASE_AT = 2 ** 29
/** Slots made before the ring first fills; they double up to `capacity`. */
const FIRST_SLOTS = 64

/**
 * Fields kept as the pipeline gives them (`JournalRecord`) and shown as they
 * are, `null` when absent, in this order after `world`: a new such field is
 * its name here, plus its types in `JournalRecord` and `journalEntrySchema`.
 */
const PLAIN_FIELDS = ['fault', 'proxy'] as const
type PlainField = (typeof PLAIN_FIELDS)[number]
type PlainColumns = Record<PlainField, Array<string | undefined>>

function plainColumns(): PlainColumns {
  return Object.fromEntries(PLAIN_FIELDS.map((name) => [name, []])) as unknown as PlainColumns
}

/** One entry, read back out of the ring for `find`. */
interface Held {
  id: number
  time: number
  durationMs: number
  method: string
  area: string
  prefix: string
  pattern: string | null
  status: number
  href: string
  pathname: string
  slot: number
}

/**
 * A bounded ring of answered requests. Recording is cheap and leaves nothing
 * behind for the garbage collector, whatever was answered before: an entry is
 * a slot in typed arrays (numbers) and plain arrays (long-lived strings:
 * method, area, route pattern), its texts (URL, headers, bodies) go into a
 * `BodyArena` (see there why) but for cached response bodies (`Reply.bodyCached`),
 * which are kept by reference, and parsing, redaction and formatting wait for
 * `find`. Why no object per entry: reused entry objects changed shape between
 * POSTs and GETs, which deoptimised `record` (bench/README.md#journal-cost).
 */
export class Journal implements RequestJournal {
  readonly capacity: number
  readonly #bodyLimit: number
  readonly #world: string | null
  readonly #text = new BodyArena()
  #ids: Float64Array
  #times: Float64Array
  #durations: Float64Array
  #statuses: Uint16Array
  #methods: string[] = []
  #mounts: Array<{ area: string; prefix: string }> = []
  #patterns: Array<string | null> = []
  #plain = plainColumns()
  /** Response bodies kept by reference (`Reply.bodyCached`), per slot; the arena holds the others. */
  #cachedBodies: Array<string | undefined> = []
  /** Per slot and text (`slot * TEXTS + URL_TEXT`…): arena position, UTF-8 bytes (-1: none), characters before any cut. */
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

  /** `rebaseAt` is for tests: a low value exercises the arena's rebase without writing 512 MiB first. */
  constructor(options: { size: number; bodyLimit: number; world: string | null; rebaseAt?: number }) {
    this.capacity = options.size
    this.#bodyLimit = options.bodyLimit
    this.#world = options.world
    this.#rebaseAt = options.rebaseAt ?? REBASE_AT
    const slots = Math.min(this.capacity, FIRST_SLOTS)
    this.#ids = new Float64Array(slots)
    this.#times = new Float64Array(slots)
    this.#durations = new Float64Array(slots)
    this.#statuses = new Uint16Array(slots)
    this.#textAt = new Float64Array(slots * TEXTS)
    this.#textBytes = new Int32Array(slots * TEXTS)
    this.#textLength = new Int32Array(slots * TEXTS)
  }

  get size(): number {
    return this.#held
  }

  /** Characters of each body an entry keeps (the `journal.bodyLimit` option). */
  get bodyLimit(): number {
    return this.#bodyLimit
  }

  record(record: JournalRecord): void {
    const { time, durationMs, request, dispatch, response, bodyLengths } = record
    if (this.capacity === 0 || dispatch.mount === undefined) return
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
    for (const name of PLAIN_FIELDS) this.#plain[name][slot] = record[name]
    const texts = slot * TEXTS
    this.#write(texts + URL_TEXT, request.url)
    this.#write(texts + HEADER_TEXT, headerText(request.headers))
    this.#keep(texts + REQUEST_BODY, request.bodyText, false, bodyLengths?.request)
    this.#cachedBodies[slot] = this.#keep(texts + RESPONSE_BODY, response.body ?? undefined, response.bodyCached, bodyLengths?.response)
    this.#next = (slot + 1) % this.capacity
    if (this.#held < this.capacity) this.#held++
    if (this.#textAt[texts + HEADER_TEXT]! > this.#rebaseAt) this.#rebase()
    // Only built when someone watches: recording stays allocation-free otherwise.
    if (this.#watchers.size > 0) this.#watchers.emit(this.#view(this.#entry(slot)))
  }

  watch(listener: (entry: JournalEntry) => void): () => void {
    return this.#watchers.add(listener)
  }

  find(query: JournalQuery = {}): JournalEntry[] {
    const method = query.method?.toUpperCase()
    const path = query.path === undefined ? undefined : compileRouteMatcher(query.path)
    const status = query.status === undefined ? undefined : statusFilter(query.status)
    const since = query.since === undefined ? undefined : instant(query.since)
    const matching = this.#ordered()
      .map((slot) => this.#entry(slot))
      .filter(
        (entry) =>
          (query.area === undefined || entry.area === query.area) &&
          (method === undefined || entry.method === method) &&
          (status === undefined || status(entry.status)) &&
          (since === undefined || entry.time >= since) &&
          (path === undefined || path(entry)),
      )
    const limited = query.limit !== undefined && query.limit < matching.length ? matching.slice(matching.length - query.limit) : matching
    return limited.map((entry) => this.#view(entry))
  }

  clear(): void {
    this.#text.clear()
    this.#methods = []
    this.#mounts = []
    this.#patterns = []
    this.#plain = plainColumns()
    this.#cachedBodies = []
    this.#held = 0
    this.#next = 0
    this.#count = 0
  }

  /** Slots from the oldest entry to the newest. */
  #ordered(): number[] {
    const first = this.#held < this.capacity ? 0 : this.#next
    return Array.from({ length: this.#held }, (_, i) => (first + i) % this.capacity)
  }

  #entry(slot: number): Held {
    // A kept entry's text is never released before the entry itself.
    const href = this.#read(slot * TEXTS + URL_TEXT)!
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
    for (let text = slot * TEXTS + TEXTS - 1; text >= slot * TEXTS; text--) {
      const bytes = this.#textBytes[text]!
      if (bytes >= 0) return this.#text.release(this.#textAt[text]! + bytes)
    }
  }

  /** Every held position moved down with the arena's. */
  #rebase(): void {
    const shift = this.#text.rebase()
    for (const slot of this.#ordered()) {
      for (let text = slot * TEXTS; text < slot * TEXTS + TEXTS; text++) this.#textAt[text] = this.#textAt[text]! - shift
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
    this.#textAt = wider(this.#textAt, Float64Array, TEXTS)
    this.#textBytes = wider(this.#textBytes, Int32Array, TEXTS)
    this.#textLength = wider(this.#textLength, Int32Array, TEXTS)
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

  #view(entry: Held): JournalEntry {
    const texts = entry.slot * TEXTS
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
    for (const name of PLAIN_FIELDS) view[name] = this.#plain[name][entry.slot] ?? null
    view.requestHeaders = redactHeaders({ entries: () => headerPairs(this.#read(texts + HEADER_TEXT) ?? '') })
    view.requestBody = this.#bodyView(texts + REQUEST_BODY)
    view.responseBody = this.#bodyView(texts + RESPONSE_BODY, this.#cachedBodies[entry.slot])
    return view as JournalEntry
  }

  /** Parsed and redacted JSON when complete; otherwise redacted text, marked when cut. */
  #bodyView(text: number, cached?: string): unknown {
    const kept = cached ?? this.#read(text)
    if (kept === undefined) return null
    const length = cached === undefined ? this.#textLength[text]! : cached.length
    const cut = length > kept.length
    if (!cut) {
      try {
        return redactJson(JSON.parse(kept))
      } catch {
        // Not JSON: shown as text below.
      }
    }
    return cut ? `${redactJsonText(kept)}… [truncated: ${length} characters in all]` : redactJsonText(kept)
  }
}
