import * as z from 'zod'
import type { Reply } from '../kernel/http/reply.js'
import type { SimRequest } from '../kernel/http/sim-request.js'
import type { Dispatch } from '../kernel/routing/dispatcher.js'
import { isoTimestamp } from '../kernel/time/iso-timestamp.js'
import type { JournalQuery } from './journal-query.js'

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
    proxy: z.string().nullable().describe('The upstream base URL the request was passed to when its area is proxied (`serve --proxy`); null when simulated.'),
    requestHeaders: z.record(z.string(), z.string()).describe('Secrets (Authorization, API keys, cookies) redacted.'),
    requestBody: z.unknown().describe('Parsed JSON when complete, else the (truncated) text; null when there was none or the route did not read it.'),
    responseBody: z.unknown().describe('Parsed JSON when complete, else the (truncated) text; null when there was none.'),
  })
  .meta({ id: 'JournalEntry', description: 'One answered area request (`GET /__mock/requests`).' })
export type JournalEntry = z.output<typeof journalEntrySchema>

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
  /**
   * Calls `listener` with each entry as it is recorded, before the request is
   * answered (the events stream, `GET /__mock/events`). While nobody watches,
   * recording builds no entry. Returns the function that stops watching.
   *
   * @example
   * const stop = sim.journal.watch((entry) => console.log(entry.method, entry.path, entry.status))
   */
  watch(listener: (entry: JournalEntry) => void): () => void
}

/** What the pipeline hands over for one answered request. */
export interface JournalRecord {
  time: number
  durationMs: number
  request: SimRequest
  dispatch: Dispatch
  response: Reply
  fault: string | undefined
  /** The upstream base URL, when the area is proxied (`serve --proxy`). */
  proxy?: string | undefined
  /** A proxied request's body sizes (bytes): its bodies are streamed, only their start is given as text. */
  bodyLengths?: { request?: number | undefined; response?: number | undefined }
}
