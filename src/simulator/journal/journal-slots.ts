import type { Mount } from '../../kernel/routing/route.js'
import { BodyArena } from './body-arena.js'
import { bodyView } from './journal-body-view.js'
import type { JournalEntry, JournalRecord } from './journal-entry.js'
import { headerPairs, headerText } from './journal-headers.js'
import * as layout from './journal-layout.js'
import { redactHeaders, redactUrl } from './redact.js'

/**
 * Where the journal's ring keeps its entries, one slot each: numbers in typed
 * arrays, long-lived strings (method, area, route pattern) in plain arrays, and
 * the texts (URL, headers, bodies) in a `BodyArena` (see there why), but for
 * cached response bodies (`Reply.bodyCached`), kept by reference. Parsing,
 * redaction and formatting wait for `view`. Which slot is next and which are
 * held is the `Journal`'s to say.
 *
 * @example
 * const slots = new JournalSlots(64, 8192)
 * slots.put(0, 1, record, mount)
 * slots.view(slots.entry(0), null) // { id: 1, method: 'POST', ... }
 */
export class JournalSlots {
  readonly #bodyLimit: number
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

  constructor(slots: number, bodyLimit: number) {
    this.#bodyLimit = bodyLimit
    this.#ids = new Float64Array(slots)
    this.#times = new Float64Array(slots)
    this.#durations = new Float64Array(slots)
    this.#statuses = new Uint16Array(slots)
    this.#textAt = new Float64Array(slots * layout.TEXTS)
    this.#textBytes = new Int32Array(slots * layout.TEXTS)
    this.#textLength = new Int32Array(slots * layout.TEXTS)
  }

  /** Slots made so far. */
  get length(): number {
    return this.#ids.length
  }

  /** Keeps `record` in `slot` as entry `id`; returns the arena position of its headers (its last text always written): past the journal's limit, time to `rebase`. */
  put(slot: number, id: number, record: JournalRecord, mount: Mount): number {
    const { time, durationMs, request, dispatch, response, bodyLengths } = record
    this.#ids[slot] = id
    this.#times[slot] = time
    this.#durations[slot] = durationMs
    this.#methods[slot] = request.method
    this.#mounts[slot] = mount
    this.#patterns[slot] = dispatch.kind === 'route' ? dispatch.route.path : null
    // A network error (dropped connection) has status 0, as in HAR files.
    this.#statuses[slot] = response.status
    for (const name of layout.PLAIN_FIELDS) this.#plain[name][slot] = record[name]
    const texts = slot * layout.TEXTS
    this.#write(texts + layout.URL_TEXT, request.url)
    this.#write(texts + layout.HEADER_TEXT, headerText(request.headers))
    this.#keep(texts + layout.REQUEST_BODY, request.bodyText, false, bodyLengths?.request)
    this.#cachedBodies[slot] = this.#keep(texts + layout.RESPONSE_BODY, response.body ?? undefined, response.bodyCached, bodyLengths?.response)
    return this.#textAt[texts + layout.HEADER_TEXT]!
  }

  /** Forgets every entry (the typed arrays stay, to be written over). */
  clear(): void {
    this.#text.clear()
    this.#methods = []
    this.#mounts = []
    this.#patterns = []
    this.#plain = layout.plainColumns()
    this.#cachedBodies = []
  }

  /** The entry in `slot`, read back out. */
  entry(slot: number): layout.Held {
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
  release(slot: number): void {
    for (let text = slot * layout.TEXTS + layout.TEXTS - 1; text >= slot * layout.TEXTS; text--) {
      const bytes = this.#textBytes[text]!
      if (bytes >= 0) return this.#text.release(this.#textAt[text]! + bytes)
    }
  }

  /** Every held position (of the `held` slots) moved down with the arena's. */
  rebase(held: readonly number[]): void {
    const shift = this.#text.rebase()
    for (const slot of held) {
      for (let text = slot * layout.TEXTS; text < slot * layout.TEXTS + layout.TEXTS; text++) this.#textAt[text] = this.#textAt[text]! - shift
    }
  }

  /** `slots` slots, the entries kept where they are. */
  grow(slots: number): void {
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

  /** The entry as `find` shows it, in `world`: URL, headers and bodies redacted. */
  view(entry: layout.Held, world: string | null): JournalEntry {
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
      world,
    }
    for (const name of layout.PLAIN_FIELDS) view[name] = this.#plain[name][entry.slot] ?? null
    view.requestHeaders = redactHeaders({ entries: () => headerPairs(this.#read(texts + layout.HEADER_TEXT) ?? '') })
    view.requestBody = this.#bodyView(texts + layout.REQUEST_BODY)
    view.responseBody = this.#bodyView(texts + layout.RESPONSE_BODY, this.#cachedBodies[entry.slot])
    return view as JournalEntry
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

  /** Parsed and redacted JSON when complete; otherwise redacted text, marked when cut. */
  #bodyView(text: number, cached?: string): unknown {
    const kept = cached ?? this.#read(text)
    return kept === undefined ? null : bodyView(kept, cached === undefined ? this.#textLength[text]! : cached.length)
  }
}
