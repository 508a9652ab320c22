import * as z from 'zod'
import { parseInstant } from '../kernel/clock.js'
import type { Dispatch } from '../kernel/dispatcher.js'
import type { Reply } from '../kernel/reply.js'
import type { RequestHeaders, SimRequest } from '../kernel/sim-request.js'
import { redactHeaders, redactJson, redactJsonText, redactUrl } from '../kernel/redact.js'
import { intParam } from '../kernel/query.js'
import { compileRouteMatcher } from '../kernel/route-matcher.js'
import { acceptedBy } from '../kernel/validate.js'
import { type ArenaSlot, BodyArena } from './body-arena.js'
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
  since: z
    .string()
    .refine(acceptedBy(parseInstant), 'must be an ISO 8601 instant such as 2026-01-01T00:00:00Z')
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

/**
 * One entry as kept. Only numbers and long-lived strings (method, area, route
 * pattern): the URL, headers and bodies of the request are text in the arena,
 * and once the ring is full the evicted entry's object is reused. So nothing
 * a request allocated outlives it because of the journal (see `BodyArena`).
 */
interface Stored {
  id: number
  time: number
  durationMs: number
  method: string
  area: string
  prefix: string
  pattern: string | null
  status: number
  url: Kept
  /** `name\nvalue\n…`: neither may contain a line break. */
  headers: Kept
  requestBody: Kept | undefined
  responseBody: Kept | undefined
  fault: string | undefined
}

/** Text kept in the arena: where it is, and the length (in characters) it had before any cut. */
interface Kept extends ArenaSlot {
  length: number
}

/**
 * A bounded ring of answered requests. Recording is cheap and leaves nothing
 * behind for the garbage collector: the text of an entry (URL, headers,
 * bodies) goes into a `BodyArena` (see there why), entry objects are reused,
 * and parsing, redaction and formatting wait for `find`.
 */
export class Journal implements RequestJournal {
  readonly capacity: number
  readonly #bodyLimit: number
  readonly #world: string | null
  #ring: Stored[] = []
  readonly #text = new BodyArena()
  /** Where the next entry goes once the ring is full. */
  #next = 0
  #count = 0

  constructor(options: { size: number; bodyLimit: number; world: string | null }) {
    this.capacity = options.size
    this.#bodyLimit = options.bodyLimit
    this.#world = options.world
  }

  get size(): number {
    return this.#ring.length
  }

  record({ time, durationMs, request, dispatch, response, fault }: JournalRecord): void {
    if (this.capacity === 0 || dispatch.mount === undefined) return
    const full = this.#ring.length === this.capacity
    const entry = full ? this.#ring[this.#next]! : ({} as Stored)
    if (full) {
      const last = entry.responseBody ?? entry.requestBody ?? entry.headers
      this.#text.release(last.at + last.bytes)
    }
    const requestText = request.bodyText
    const responseText = response.body ?? undefined
    entry.id = ++this.#count
    entry.time = time
    entry.durationMs = durationMs
    entry.method = request.method
    entry.area = dispatch.mount.area
    entry.prefix = dispatch.mount.prefix
    entry.pattern = dispatch.kind === 'route' ? dispatch.route.path : null
    // A network error (dropped connection) has status 0, as in HAR files.
    entry.status = response.status
    // The reused entry's `Kept` objects are reused too: a new one would be promoted with it.
    entry.url = this.#write(request.url, entry.url)
    entry.headers = this.#write(headerText(request.headers), entry.headers)
    entry.requestBody = requestText === undefined || requestText === '' ? undefined : this.#keep(requestText, entry.requestBody)
    entry.responseBody = responseText === undefined || responseText === '' ? undefined : this.#keep(responseText, entry.responseBody)
    entry.fault = fault
    if (full) this.#next = (this.#next + 1) % this.capacity
    else this.#ring.push(entry)
  }

  find(query: JournalQuery = {}): JournalEntry[] {
    const method = query.method?.toUpperCase()
    const path = query.path === undefined ? undefined : compileRouteMatcher(query.path)
    const status = query.status === undefined ? undefined : statusFilter(query.status)
    const since = query.since === undefined ? undefined : instant(query.since)
    const matching = this.#ordered()
      .map((entry) => {
        // A kept entry's text is never released before the entry itself.
        const href = this.#text.read(entry.url)!
        return { ...entry, href, pathname: new URL(href).pathname }
      })
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
    this.#ring = []
    this.#text.clear()
    this.#next = 0
    this.#count = 0
  }

  #ordered(): Stored[] {
    return this.#next === 0 ? this.#ring : [...this.#ring.slice(this.#next), ...this.#ring.slice(0, this.#next)]
  }

  #keep(text: string, reuse: Kept | undefined): Kept | undefined {
    if (this.#bodyLimit === 0) return undefined
    const kept = this.#write(text.length <= this.#bodyLimit ? text : text.slice(0, this.#bodyLimit), reuse)
    kept.length = text.length
    return kept
  }

  #write(text: string, reuse: Kept | undefined): Kept {
    const slot = this.#text.write(text)
    if (reuse === undefined) return { at: slot.at, bytes: slot.bytes, length: text.length }
    reuse.at = slot.at
    reuse.bytes = slot.bytes
    reuse.length = text.length
    return reuse
  }

  #view(entry: Stored & { href: string; pathname: string }): JournalEntry {
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
      requestHeaders: redactHeaders({ entries: () => headerPairs(this.#text.read(entry.headers) ?? '') }),
      requestBody: this.#bodyView(entry.requestBody),
      responseBody: this.#bodyView(entry.responseBody),
    }
  }

  /** Parsed and redacted JSON when complete; otherwise redacted text, marked when cut. */
  #bodyView(kept: Kept | undefined): unknown {
    const text = kept && this.#text.read(kept)
    if (kept === undefined || text === undefined) return null
    const cut = kept.length > text.length
    if (!cut) {
      try {
        return redactJson(JSON.parse(text))
      } catch {
        // Not JSON: shown as text below.
      }
    }
    return cut ? `${redactJsonText(text)}… [truncated: ${kept.length} characters in all]` : redactJsonText(text)
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
