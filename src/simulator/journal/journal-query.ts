import * as z from 'zod'
import { intParam } from '../../kernel/http/query.js'
import { compileRouteMatcher, type RouteTarget } from '../../kernel/routing/route-matcher.js'
import { parseInstant } from '../../kernel/time/clock.js'
import { isoInstant } from '../../kernel/time/iso-instant.js'

/**
 * What `find` filters on; every field is optional and they combine (AND).
 * `GET /__mock/requests` takes the same names as query parameters.
 */
export interface JournalQuery {
  /** Area id, e.g. `admin`. */
  area?: string | undefined
  /** HTTP method, any case. */
  method?: string | undefined
  /** A path, a path glob (`/admin/**`) or a route pattern (`/api/v1.2/users/{id}`), as fault rules take them. */
  path?: string | undefined
  /** A status (`404`) or a class (`'4xx'`). */
  status?: number | string | undefined
  /** Only entries at or after this simulator instant (ISO 8601, a `Date` or epoch ms). */
  since?: string | Date | number | undefined
  /** Only the last `limit` matching entries (still oldest first). */
  limit?: number | undefined
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
  since: isoInstant.optional().describe('Only entries at or after this simulator instant (ISO 8601).'),
  limit: intParam(1).optional().describe('Only the last `limit` matching entries (still oldest first).'),
})

/** What the filters of a `JournalQuery` read of an entry. */
export interface JournalTarget extends RouteTarget {
  area: string
  method: string
  status: number
  /** When the request arrived (simulator clock, epoch ms). */
  time: number
}

/**
 * The filters of `query` (all but `limit`) as one test: an entry passes when
 * it matches every filter given.
 *
 * @example
 * const failed = journalFilter({ area: 'admin', status: '4xx' })
 * failed({ area: 'admin', method: 'GET', status: 404, time: 0, pathname: '/admin/x', prefix: '/admin', pattern: null }) // true
 */
export function journalFilter(query: JournalQuery): (entry: JournalTarget) => boolean {
  const method = query.method?.toUpperCase()
  const path = query.path === undefined ? undefined : compileRouteMatcher(query.path)
  const status = query.status === undefined ? undefined : statusFilter(query.status)
  const since = query.since === undefined ? undefined : instant(query.since)
  return (entry) =>
    (query.area === undefined || entry.area === query.area) &&
    (method === undefined || entry.method === method) &&
    (status === undefined || status(entry.status)) &&
    (since === undefined || entry.time >= since) &&
    (path === undefined || path(entry))
}

/** The last `limit` of `entries` (all without `limit`), still oldest first. */
export function lastOf<T>(entries: T[], limit: number | undefined): T[] {
  return limit !== undefined && limit < entries.length ? entries.slice(entries.length - limit) : entries
}

/** A status filter: `404`, or a class such as `'4xx'`. */
export function statusFilter(status: number | string): (value: number) => boolean {
  const text = String(status).toLowerCase()
  if (/^[1-5]xx$/.test(text)) {
    const hundreds = Number(text[0])
    return (value) => Math.floor(value / 100) === hundreds
  }
  return (value) => value === Number(text)
}

/** `since` as epoch milliseconds. */
export function instant(since: string | Date | number): number {
  if (typeof since === 'number') return since
  if (since instanceof Date) return since.getTime()
  return parseInstant(since)
}
