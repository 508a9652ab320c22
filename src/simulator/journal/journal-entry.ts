import * as z from 'zod'
import type { Reply } from '../../kernel/http/reply.js'
import type { SimRequest } from '../../kernel/http/sim-request.js'
import type { Dispatch } from '../../kernel/routing/dispatcher.js'
import { isoTimestamp } from '../../kernel/time/iso-timestamp.js'
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
    replica: z.string().optional().describe('The replica that answered, as `<host name>:<process id>`, when replicas share their worlds (`serve --store`); absent otherwise.'),
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

/**
 * Where the journals of a simulator family keep their entries when replicas
 * share their worlds (`serve --store`, issue 33), so each world's journal
 * holds the requests every replica answered for it. Set by the node side
 * (`src/node/store/shared-journal.ts`); entries are texts the journal makes and reads.
 */
export interface SharedJournal {
  /** This replica's name, each of its entries' `replica`. */
  readonly replica: string
  /**
   * Appends an entry to a world's journal (`null`: the default world), which
   * keeps about `capacity`; resolves with its number there (from 1 after the
   * journal was last emptied) once the store holds it, or `undefined` when the
   * store could not take it (the entry is then only in this replica's journal).
   */
  append(world: string | null, text: string, capacity: number): Promise<number | undefined>
  /** A world's newest `count` entries, oldest first; rejects (503 `store_unavailable`) when the store does not answer. */
  read(world: string | null, count: number): Promise<Array<{ id: number; text: string }>>
  /**
   * Empties a world's journal for every replica. `'command'`: a reset or a
   * scenario load, which every replica applies, emptied it; only the replica
   * that accepted that command empties the shared journal, once (later would
   * wipe what was recorded since). Rejects when the store does not answer.
   */
  clear(world: string | null, cause: 'request' | 'command'): Promise<void>
}

/** A simulator family's link to its shared journal: one for all its worlds, empty unless replicas share them. */
export interface JournalShare {
  store?: SharedJournal | undefined
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
