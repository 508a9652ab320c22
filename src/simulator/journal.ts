import * as z from 'zod'
import { parseInstant } from '../kernel/clock.js'
import { isoInstant } from '../kernel/iso-instant.js'
import type { Dispatch } from '../kernel/dispatcher.js'
import type { Reply } from '../kernel/reply.js'
import type { RequestHeaders, SimRequest } from '../kernel/sim-request.js'
import { redactHeaders, redactJson, redactJsonText, redactUrl } from '../kernel/redact.js'
import { intParam } from '../kernel/query.js'
import { compileRouteMatcher } from '../kernel/route-matcher.js'
import { BodyArena } from './body-arena.js'
import { isoTimestamp } from '../world/accounts/account-schema.js'

/** Entries kept unless the `journal.size` option says otherwise. */
export const DEFAULT_JOURNAL_SIZE = 1000

/** Characters of each request and response body kept in an entry unless `journal.bodyLimit` says otherwise. */
export const DEFAULT_JOURNAL_BODY_LIMIT = 8192

/**
 * One answered request, as `sim.journal.find()` and `GET /__mock/requests`
 * return it. Bodies are the parsed JSON when complete, else the (truncated)
 * text; secrets are redacted at any depth.
 */
export const journalEntrySchema = z
  .object({
    id: z.int().min(1).describe('Sequence number in this journal, from 1.'),
    time: isoTimestamp.describe('Simulator clock when the request arrived (ISO 8601).'),
    method: z.string(),
    url: z.string().describe('The full URL, with secrets in the query redacted.'),
    path: z.string(),
    area: z.string().describe('Id of the area the URL is under (D1).'),
    route: z.string().nullable().describe('The matched route with its area prefix, e.g. /admin/api/v1.2/users/{userId}; null for a 404 or 405.'),
    status: z.int().min(0).describe('0 when the connection was dropped by a fault.'),
    durationMs: z.number().min(0),
    world: z.string().nullable().describe('The isolated world that answered; null for the default world.'),
    fault: z.string().nullable().describe('What a fault rule or Prefer header did, e.g. "rule 1: 503"; null when none applied.'),
    requestHeaders: z.record(z.string(), z.string()).describe('Secrets (Authorization, API keys, cookies) redacted.'),
    requestBody: z.unknown().describe('Parsed JSON when complete, else the (truncated) text; null when there was none or the route did not read it.'),
    responseBody: z.unknown().describe('Parsed JSON when complete, else the (truncated) text; null when there was none.'),
  })
  .meta({ id: 'JournalEntry', description: 'One answered area request (`GET /__mock/requests`).' })
export type JournalEntry = z.output<typeof journalEntrySchema>

/**
 * What `find` filters on; every field is optional and they combine (AND).
 * `GET /__mock/requests` takes the same names as query parameters.
 */
export interface JournalQuery {
  /** Area id, e.g. `admin`. */
  area?: string
  /** HTTP method, any case. */
  method?: string
  /** A path, a path glob (`/admin/**`) or a route pattern (`/api/v1.2/users/{id}`), as fault rules take them. */
  path?: string
  /** A status (`404`) or a class (`'4xx'`). */
  status?: number | string
  /** Only entries at or after this simulator instant (ISO 8601, a `Date` or epoch ms). */
  since?: string | Date | number
  /** Only the last `limit` matching entries (still oldest first). */
  limit?: number
}

/** `GET /__mock/requests` query: the `JournalQuery` fields as text. */
export const journalQuerySchema = z.object({
  area: z.string().optional().describe('Area id, e.g. `admin`.'),
  method: z.string().optional().describe('HTTP method, any case.'),
  path: z
    .string()
    .regex(/^\//, 'must start with "/"')
    .optional()
    .describe('A path, a path glob (`/admin/**`) or a route pattern (`/api/v1.2/users/{id}`), with or without the area prefix.'),
  status: z
    .string()
    .regex(/^(\d{3}|[1-5]xx)$/i, 'must be a status like 404 or a class like 4xx')
    .optional()
    .describe('A status (`404`) or a class (`4xx`).'),
  since: isoInstant
    .optional()
    .describe('Only entries at or after this simulator instant (ISO 8601).'),
  limit: intParam(1).optional().describe('Only the last `limit` matching entries (still oldest first).'),
})

/**
 * The request journal of one simulator (or world): the last answered area
 * requests, oldest first. Control API calls are not journaled.
 *
 * @example
 * const logins = sim.journal.find({ method: 'POST', path: '/general/auth/login' })
 * expect(logins).toHaveLength(1)
 * expect(logins[0].status).toBe(200)
 */
export interface RequestJournal {
  /** Entries kept at most; 0 means journaling is off. */
  readonly capacity: number
  /** Entries held now. */
  readonly size: number
  find(query?: JournalQuery): JournalEntry[]
  clear(): void
}

/** What the pipeline hands over for one answered request. */
export interface JournalRecord {
  time: number
  durationMs: number
  request: SimRequest
  dispatch: Dispatch
  response: Reply
  fault: string | undefined
}

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
  fault: string | undefined
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
 * `find`. An object per entry made `record` slower for every later request
 * once POSTs (with a body) and GETs (without) had both been kept: the shapes
 * and field kinds of the reused objects changed under the optimised code.
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
  #faults: Array<string | undefined> = []
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

  record({ time, durationMs, request, dispatch, response, fault }: JournalRecord): void {
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
    this.#faults[slot] = fault
    const texts = slot * TEXTS
    this.#write(texts + URL_TEXT, request.url)
    this.#write(texts + HEADER_TEXT, headerText(request.headers))
    this.#keep(texts + REQUEST_BODY, request.bodyText)
    this.#cachedBodies[slot] = this.#keep(texts + RESPONSE_BODY, response.body ?? undefined, response.bodyCached)
    this.#next = (slot + 1) % this.capacity
    if (this.#held < this.capacity) this.#held++
    if (this.#textAt[texts + HEADER_TEXT]! > this.#rebaseAt) this.#rebase()
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
    this.#faults = []
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
      fault: this.#faults[slot],
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
   * in its cache anyway, and a copy would cost ~1 µs per 4 kB.
   */
  #keep(text: number, body: string | undefined, cached = false): string | undefined {
    if (body === undefined || body === '' || this.#bodyLimit === 0) this.#textBytes[text] = -1
    else if (cached && body.length <= this.#bodyLimit) {
      this.#textBytes[text] = -1
      return body
    } else this.#write(text, body.length <= this.#bodyLimit ? body : body.slice(0, this.#bodyLimit), body.length)
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
    return {
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
      fault: entry.fault ?? null,
      requestHeaders: redactHeaders({ entries: () => headerPairs(this.#read(texts + HEADER_TEXT) ?? '') }),
      requestBody: this.#bodyView(texts + REQUEST_BODY),
      responseBody: this.#bodyView(texts + RESPONSE_BODY, this.#cachedBodies[entry.slot]),
    }
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

/** Headers as one text, `name\nvalue\n…` (Fetch and Node both refuse line breaks in either). */
function headerText(headers: RequestHeaders): string {
  let text = ''
  for (const [name, value] of headers.entries()) text += `${name}\n${value}\n`
  return text
}

function headerPairs(text: string): Array<[string, string]> {
  const parts = text.split('\n')
  const pairs: Array<[string, string]> = []
  for (let i = 0; i + 1 < parts.length; i += 2) pairs.push([parts[i]!, parts[i + 1]!])
  return pairs
}

function statusFilter(status: number | string): (value: number) => boolean {
  const text = String(status).toLowerCase()
  if (/^[1-5]xx$/.test(text)) {
    const hundreds = Number(text[0])
    return (value) => Math.floor(value / 100) === hundreds
  }
  return (value) => value === Number(text)
}

function instant(since: string | Date | number): number {
  if (typeof since === 'number') return since
  if (since instanceof Date) return since.getTime()
  return parseInstant(since)
}
