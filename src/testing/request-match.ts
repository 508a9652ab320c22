import * as z from 'zod'
import type { JournalEntry, RequestJournal } from '../simulator/journal/journal-entry.js'
import type { JournalQuery } from '../simulator/journal/journal-query.js'

/**
 * What `toHaveReceivedRequest` looks for in a world's request journal. Every
 * field is optional and they combine (AND); `{}` matches any request.
 *
 * @example
 * const match: RequestMatch = { method: 'PUT', path: '/admin/api/v1.2/users/*', status: '2xx', body: { status: 'active' } }
 */
export const requestMatchSchema = z.strictObject({
  method: z.string().min(1, 'must not be empty').optional().describe('HTTP method, any case.'),
  path: z
    .string()
    .regex(/^\//, 'must start with "/"')
    .optional()
    .describe('A path, a path glob (`/admin/**`) or a route pattern (`/api/v1.2/users/{id}`), with or without the area prefix, as journal filters take it.'),
  area: z.string().min(1, 'must not be empty').optional().describe('Area id, e.g. `admin`.'),
  status: z
    .union([z.int().min(0).max(599), z.string().regex(/^(\d{3}|[1-5]xx)$/i, 'must be a status like 404 or a class like "4xx"')], 'must be a status like 404 or a class like "4xx"')
    .optional()
    .describe('A status (`404`) or a class (`"4xx"`).'),
  query: z.record(z.string(), z.string()).optional().describe('Query parameters that must be present with these values; others may be too.'),
  headers: z.record(z.string(), z.string()).optional().describe('Request headers that must be present with these values (names in any case); secrets are redacted in the journal.'),
  body: z.unknown().optional().describe('The JSON request body contains this: objects may have more keys, arrays must have the same length.'),
})
export type RequestMatch = z.input<typeof requestMatchSchema>

/** The options of `toHaveReceivedRequest`. */
export const matchOptionsSchema = z.strictObject({
  times: z.int('must be a whole number').min(0, 'must be 0 or more').optional().describe('Exactly this many matching requests; default: at least one.'),
  timeout: z.number().min(0, 'must be 0 or more').optional().describe('Playwright only: keep looking this long (ms) while it fails; default: the expect timeout.'),
})
export type MatchOptions = z.input<typeof matchOptionsSchema>

/**
 * A world's journal as the matcher needs it: every entry, and the ids the
 * journal's own `path` filter accepts (so a path means exactly what it means
 * in `journal.find` and `GET /__mock/requests`).
 */
export interface JournalSnapshot {
  entries: readonly JournalEntry[]
  pathMatches?: ReadonlySet<number>
  /** The world, for the message; `null` for the default world. */
  world: string | null
}

/** One field an entry differs in from the match. */
export interface Mismatch {
  field: string
  expected: string
  received: string
}

/** What the matcher decided, and the message for either outcome. */
export interface MatchVerdict {
  pass: boolean
  matched: JournalEntry[]
  message: () => string
}

/**
 * Validates a match and its options; throws a `TypeError` naming every problem.
 *
 * @example
 * checkMatch({ method: 'GET', path: '/core/users' }, { times: 1 })
 */
export function checkMatch(match: unknown, options: unknown = {}): { match: RequestMatch; options: MatchOptions } {
  const parsedMatch = requestMatchSchema.safeParse(match)
  const parsedOptions = matchOptionsSchema.safeParse(options ?? {})
  const problems = [
    ...(parsedMatch.success ? [] : parsedMatch.error.issues.map((issue) => `match${issue.path.map((key) => `.${String(key)}`).join('')}: ${issue.message}`)),
    ...(parsedOptions.success ? [] : parsedOptions.error.issues.map((issue) => `options${issue.path.map((key) => `.${String(key)}`).join('')}: ${issue.message}`)),
  ]
  if (problems.length > 0) throw new TypeError(`toHaveReceivedRequest: ${problems.join('; ')}.`)
  return { match: parsedMatch.data!, options: parsedOptions.data! }
}

/**
 * The journal query whose ids decide the `path` field, or `undefined` when the
 * match has no path. Ask the journal for it after reading all entries.
 */
export function pathQuery(match: RequestMatch): JournalQuery | undefined {
  return match.path === undefined ? undefined : { path: match.path }
}

/**
 * Reads an in-process journal (`sim.journal`) for `judge`.
 *
 * @example
 * const verdict = judge(match, {}, readJournal(sim.journal, match, sim.worldId), false)
 */
export function readJournal(journal: Pick<RequestJournal, 'find'>, match: RequestMatch, world: string | null): JournalSnapshot {
  const entries = journal.find()
  const query = pathQuery(match)
  return query ? { entries, world, pathMatches: new Set(journal.find(query).map((entry) => entry.id)) } : { entries, world }
}

/** Like `readJournal`, for a journal read over HTTP (`mock.journal` of `multi-area-mock/playwright`). */
export async function readJournalAsync(journal: { find(query?: JournalQuery): Promise<JournalEntry[]> }, match: RequestMatch, world: string | null): Promise<JournalSnapshot> {
  // All entries first: an entry that arrives in between is then in the path answer only, never judged without it.
  const entries = await journal.find()
  const query = pathQuery(match)
  return query ? { entries, world, pathMatches: new Set((await journal.find(query)).map((entry) => entry.id)) } : { entries, world }
}

/**
 * How an entry differs from a match: empty when it matches.
 *
 * @example
 * compareEntry({ method: 'POST' }, entry, snapshot) // [{ field: 'method', expected: 'POST', received: 'GET' }]
 */
export function compareEntry(match: RequestMatch, entry: JournalEntry, snapshot: JournalSnapshot): Mismatch[] {
  const out: Mismatch[] = []
  if (match.method !== undefined && match.method.toUpperCase() !== entry.method) out.push({ field: 'method', expected: match.method.toUpperCase(), received: entry.method })
  if (match.path !== undefined && !snapshot.pathMatches?.has(entry.id)) out.push({ field: 'path', expected: match.path, received: entry.path })
  if (match.area !== undefined && match.area !== entry.area) out.push({ field: 'area', expected: match.area, received: entry.area })
  if (match.status !== undefined && !statusMatches(match.status, entry.status)) {
    out.push({ field: 'status', expected: String(match.status), received: String(entry.status) })
  }
  if (match.query) {
    const params = new URL(entry.url).searchParams
    for (const [name, value] of Object.entries(match.query)) {
      const got = params.get(name)
      if (got !== value) out.push({ field: `query.${name}`, expected: JSON.stringify(value), received: got === null ? '(absent)' : JSON.stringify(got) })
    }
  }
  if (match.headers) {
    for (const [name, value] of Object.entries(match.headers)) {
      const got = entry.requestHeaders[name.toLowerCase()]
      if (got !== value) out.push({ field: `headers.${name.toLowerCase()}`, expected: JSON.stringify(value), received: got === undefined ? '(absent)' : JSON.stringify(got) })
    }
  }
  if ('body' in match && match.body !== undefined) {
    const difference = contains(match.body, entry.requestBody, 'body')
    if (difference) out.push(difference)
  }
  return out
}

/**
 * Judges a snapshot: `pass` is "a matching request was received" (exactly
 * `times` of them when given). The message explains the outcome that fails:
 * for `isNot`, the matches found; otherwise the closest entries and how each differs.
 *
 * @example
 * const verdict = judge({ method: 'GET', path: '/core/users' }, {}, { entries: sim.journal.find(), pathMatches, world: null }, false)
 */
export function judge(match: RequestMatch, options: MatchOptions, snapshot: JournalSnapshot, isNot: boolean): MatchVerdict {
  const compared = snapshot.entries.map((entry) => ({ entry, mismatches: compareEntry(match, entry, snapshot) }))
  const matched = compared.filter((item) => item.mismatches.length === 0).map((item) => item.entry)
  const pass = options.times === undefined ? matched.length > 0 : matched.length === options.times
  const message = () => {
    const wanted = `${describeMatch(match)}, ${options.times === undefined ? 'at least once' : `exactly ${times(options.times)}`}`
    const where = snapshot.world === null ? 'the default world' : `world "${snapshot.world}"`
    const lines = [`Expected${isNot ? ' not' : ''}: ${wanted}`]
    const total = `${snapshot.entries.length} ${snapshot.entries.length === 1 ? 'request' : 'requests'} in the journal of ${where}`
    lines.push(`Received: ${matched.length} matching ${matched.length === 1 ? 'request' : 'requests'} among ${total}`)
    if (matched.length > 0) {
      lines.push('', isNot || (options.times !== undefined && matched.length > options.times) ? 'Matching requests:' : 'Matching requests so far:')
      for (const entry of matched.slice(-5)) lines.push(`  ${headline(entry)}`)
      if (matched.length > 5) lines.push(`  … and ${matched.length - 5} earlier`)
    }
    const others = compared.filter((item) => item.mismatches.length > 0)
    if (!isNot && (matched.length === 0 || (options.times !== undefined && matched.length < options.times))) {
      if (snapshot.entries.length === 0)
        lines.push('', `No request reached the simulator in ${where}: was it sent to another server or world (the ${'`x-mock-world`'} header or ${'`mock-world`'} cookie)?`)
      else if (others.length > 0) {
        const closest = [...others].sort((a, b) => a.mismatches.length - b.mismatches.length || b.entry.id - a.entry.id).slice(0, 3)
        lines.push('', `Closest ${closest.length === 1 ? 'entry' : `${closest.length} entries`} (of ${others.length} that differ), - expected + received:`)
        for (const { entry, mismatches } of closest) {
          lines.push(`  ${headline(entry)}`)
          const width = Math.max(...mismatches.map((item) => item.field.length))
          for (const item of mismatches) {
            lines.push(`      ${item.field.padEnd(width)}  - ${item.expected}`)
            lines.push(`      ${' '.repeat(width)}  + ${item.received}`)
          }
        }
      }
    }
    return lines.join('\n')
  }
  return { pass, matched, message }
}

/** `PUT /admin/api/v1.2/users/* (status 2xx, body {"status":"active"})`. */
export function describeMatch(match: RequestMatch): string {
  const head = `${match.method?.toUpperCase() ?? 'any method'} ${match.path ?? 'any path'}`
  const rest: string[] = []
  if (match.area !== undefined) rest.push(`area ${match.area}`)
  if (match.status !== undefined) rest.push(`status ${match.status}`)
  if (match.query) rest.push(`query ${JSON.stringify(match.query)}`)
  if (match.headers) rest.push(`headers ${JSON.stringify(match.headers)}`)
  if (match.body !== undefined) rest.push(`body containing ${short(match.body)}`)
  return rest.length === 0 ? head : `${head} (${rest.join(', ')})`
}

/** One line per entry: `#4 PUT /admin/api/v1.2/users/u1 → 404 at 2026-01-01T00:00:00.000Z`. */
function headline(entry: JournalEntry): string {
  const status = entry.status === 0 ? 'dropped' : String(entry.status)
  return `#${entry.id} ${entry.method} ${entry.path}${new URL(entry.url).search} → ${status}${entry.fault ? ` (fault: ${entry.fault})` : ''} at ${entry.time}`
}

function times(count: number): string {
  return count === 1 ? 'once' : count === 2 ? 'twice' : `${count} times`
}

function statusMatches(wanted: number | string, status: number): boolean {
  const text = String(wanted).toLowerCase()
  return /^[1-5]xx$/.test(text) ? Math.floor(status / 100) === Number(text[0]) : status === Number(text)
}

/**
 * The first place where `actual` does not contain `expected`: objects may have
 * more keys, arrays must have the same length, anything else is compared with `Object.is`.
 */
function contains(expected: unknown, actual: unknown, path: string): Mismatch | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return { field: path, expected: short(expected), received: short(actual) }
    if (actual.length !== expected.length) return { field: `${path}.length`, expected: String(expected.length), received: String(actual.length) }
    for (let i = 0; i < expected.length; i++) {
      const difference = contains(expected[i], actual[i], `${path}[${i}]`)
      if (difference) return difference
    }
    return undefined
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return { field: path, expected: short(expected), received: short(actual) }
    for (const [key, value] of Object.entries(expected)) {
      if (!(key in actual)) return { field: `${path}.${key}`, expected: short(value), received: '(absent)' }
      const difference = contains(value, (actual as Record<string, unknown>)[key], `${path}.${key}`)
      if (difference) return difference
    }
    return undefined
  }
  return Object.is(expected, actual) ? undefined : { field: path, expected: short(expected), received: short(actual) }
}

/** JSON, cut to one readable line. */
export function short(value: unknown): string {
  if (value === undefined) return '(none)'
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 120 ? `${text.slice(0, 117)}…` : text
}
