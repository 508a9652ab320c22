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

interface Stored {
  id: number
  time: number
  durationMs: number
  method: string
  url: string
  /** The answered path, or the raw URL when no route matched. */
  location: string
  headers: RequestHeaders
  area: string
  prefix: string
  pattern: string | null
  status: number
  requestBody: Kept | undefined
  responseBody: Kept | undefined
  fault: string | undefined
}

/** A body as kept: where its text (cut at the limit) is in the arena, and the length it had. */
interface Kept extends ArenaSlot {
  length: number
}

/**
 * A bounded ring of answered requests. Recording is cheap: it keeps
 * references to what the request pipeline already has (the URL, the request's
 * headers), copies the bodies' text into a `BodyArena` (off the GC's heap,
 * see there why) and leaves parsing, redaction and formatting to `find`.
 */
export class Journal implements RequestJournal {
  readonly capacity: number
  readonly #bodyLimit: number
  readonly #world: string | null
  #ring: Stored[] = []
  readonly #bodies = new BodyArena()
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
    const requestText = request.bodyText
    const responseText = response.body ?? undefined
    const stored: Stored = {
      id: ++this.#count,
      time,
      durationMs,
      method: request.method,
      url: request.url,
      // The path as a string: holding the URL object keeps its internals alive in every entry.
      location: dispatch.kind === 'route' ? dispatch.url.pathname : request.url,
      headers: request.headers,
      area: dispatch.mount.area,
      prefix: dispatch.mount.prefix,
      pattern: dispatch.kind === 'route' ? dispatch.route.path : null,
      // A network error (dropped connection) has status 0, as in HAR files.
      status: response.status,
      requestBody: requestText === undefined || requestText === '' ? undefined : this.#keep(requestText),
      responseBody: responseText === undefined || responseText === '' ? undefined : this.#keep(responseText),
      fault,
    }
    if (this.#ring.length < this.capacity) this.#ring.push(stored)
    else {
      const evicted = this.#ring[this.#next]!
      const kept = evicted.responseBody ?? evicted.requestBody
      if (kept) this.#bodies.release(kept.at + kept.bytes)
      this.#ring[this.#next] = stored
      this.#next = (this.#next + 1) % this.capacity
    }
  }

  find(query: JournalQuery = {}): JournalEntry[] {
    const method = query.method?.toUpperCase()
    const path = query.path === undefined ? undefined : compileRouteMatcher(query.path)
    const status = query.status === undefined ? undefined : statusFilter(query.status)
    const since = query.since === undefined ? undefined : instant(query.since)
    const matching = this.#ordered()
      .map((entry) => ({ ...entry, pathname: pathOf(entry.location) }))
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
    this.#bodies.clear()
    this.#next = 0
    this.#count = 0
  }

  #ordered(): Stored[] {
    return this.#next === 0 ? this.#ring : [...this.#ring.slice(this.#next), ...this.#ring.slice(0, this.#next)]
  }

  #keep(text: string): Kept | undefined {
    if (this.#bodyLimit === 0) return undefined
    const slot = this.#bodies.write(text.length <= this.#bodyLimit ? text : text.slice(0, this.#bodyLimit))
    return { at: slot.at, bytes: slot.bytes, length: text.length }
  }

  #view(entry: Stored & { pathname: string }): JournalEntry {
    return {
      id: entry.id,
      time: new Date(entry.time).toISOString(),
      method: entry.method,
      url: redactUrl(entry.url),
      path: entry.pathname,
      area: entry.area,
      route: entry.pattern === null ? null : entry.prefix + entry.pattern,
      status: entry.status,
      durationMs: Math.round(entry.durationMs * 100) / 100,
      world: this.#world,
      fault: entry.fault ?? null,
      requestHeaders: redactHeaders(entry.headers),
      requestBody: this.#bodyView(entry.requestBody),
      responseBody: this.#bodyView(entry.responseBody),
    }
  }

  /** Parsed and redacted JSON when complete; otherwise redacted text, marked when cut. */
  #bodyView(kept: Kept | undefined): unknown {
    const text = kept && this.#bodies.read(kept)
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

function pathOf(location: string): string {
  return location.startsWith('/') ? location : new URL(location).pathname
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
