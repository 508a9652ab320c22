import { empty, json } from '../kernel/json-response.js'
import { parseQuery } from '../kernel/query.js'
import type { RouteDefinition } from '../kernel/route.js'
import type { RequestJournal } from './journal.js'
import { journalQuerySchema } from './journal.js'

/** `/__mock/requests`: read and clear the request journal of the world the request is for. */
export function journalRoutes(journal: RequestJournal): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/requests',
      summary: 'Answered area requests, oldest first; filters: area, method, path, status (404 or 4xx), since (ISO), limit (the last N)',
      handle({ url }) {
        const query = parseQuery(journalQuerySchema, url)
        return json({ capacity: journal.capacity, entries: journal.find(query) })
      },
    },
    {
      method: 'DELETE',
      path: '/requests',
      summary: 'Empty the request journal',
      handle() {
        journal.clear()
        return empty(204)
      },
    },
  ]
}
