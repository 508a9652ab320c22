import * as z from 'zod'
import { empty, json } from '../../kernel/http/json/json-response.js'
import { defineRoute } from '../../kernel/routing/route.js'
import { journalEntrySchema, type RequestJournal } from './journal-entry.js'
import { journalQuerySchema } from './journal-query.js'
import { Journal } from './journal.js'

/** `GET /__mock/requests` answer. */
export const journalReplySchema = z
  .object({
    capacity: z.int().min(0).describe('Entries kept at most (`journal.size`, `--journal-size`); 0: journaling is off.'),
    entries: z.array(journalEntrySchema).describe('The matching entries, oldest first.'),
  })
  .meta({ id: 'RequestJournal', description: 'The request journal of the world the request is for.' })

/** What the journal's routes work on: the journal of the world the request is for. */
export interface JournalRouteContext {
  journal: RequestJournal
}

/**
 * `/__mock/requests`: read and clear the request journal of the world the request is for.
 * Its return type is inferred, not declared: the operation types (control-operations.ts) are read from it.
 */
export function journalRoutes({ journal }: JournalRouteContext) {
  return [
    defineRoute({
      method: 'GET',
      path: '/requests',
      operationId: 'listRequests',
      summary: 'List the journaled area requests',
      description:
        'Area requests as answered, oldest first; control API calls are not journaled. Filters combine (AND): `area`, `method`, `path`, `status` (`404` or a class such as `4xx`), `since` (an instant) and `limit` (the last N). Bodies are the parsed JSON when complete, else the text cut at `journal.bodyLimit` characters; passwords, tokens, signatures and other secrets are redacted at any depth. Control API calls are not journaled. With replicas (`serve --store`) it lists the requests every replica answered for the world, each with the `replica` that answered it.',
      query: journalQuerySchema,
      responses: { 200: { body: journalReplySchema } },
      errors: ['store_unavailable'],
      // Examples are recorded on a fresh world: the journal is empty, so the answer shows its shape only.
      examples: () => [
        { summary: 'Failed requests to Area A, the last ten', query: { area: 'admin', status: '4xx', limit: '10' } },
        { name: 'badFilter', summary: 'Every bad filter listed', query: { status: 'abc', limit: '0' } },
      ],
      async handle({ query }) {
        // A world's own journal lists every replica's entries while replicas share it (`serve --store`).
        const entries = journal instanceof Journal ? await journal.list(query) : journal.find(query)
        return json({ capacity: journal.capacity, entries } satisfies z.infer<typeof journalReplySchema>)
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/requests',
      operationId: 'clearRequests',
      // The journal is not the world: emptying it is answered here, never a command.
      command: false,
      summary: 'Empty the request journal',
      description: '`POST /__mock/reset` and loading a scenario empty it too. With replicas (`serve --store`) it is emptied for every replica.',
      responses: { 204: { description: 'Emptied; no body.' } },
      errors: ['store_unavailable'],
      async handle() {
        if (journal instanceof Journal) await journal.clearEverywhere()
        else journal.clear()
        return empty(204)
      },
    }),
  ]
}
