import type { JournalEntry, SharedJournal } from './journal-entry.js'
import { type JournalQuery, journalFilter, lastOf } from './journal-query.js'

/** An entry as replicas share it: as `find` shows it but its `id` (the store numbers it), with its area's path prefix for the `path` filter. */
interface SharedText {
  prefix: string
  entry: Omit<JournalEntry, 'id'>
}

/**
 * The text a replica appends to the shared journal for one entry.
 *
 * @example
 * await store.append(world, sharedText('/core', entry), capacity)
 */
export function sharedText(prefix: string, entry: Omit<JournalEntry, 'id'>): string {
  return JSON.stringify({ prefix, entry } satisfies SharedText)
}

/**
 * What `GET /__mock/requests` answers while replicas share the journal: the
 * entries among the newest `capacity` every replica recorded for `world` that
 * match `query`, numbered as the store numbers them.
 *
 * @example
 * const entries = await readShared(store, null, 1000, { area: 'core' })
 */
export async function readShared(store: SharedJournal, world: string | null, capacity: number, query: JournalQuery): Promise<JournalEntry[]> {
  const matches = journalFilter(query)
  // Only the last `limit` asked for, unfiltered (the inspector's read): no need to fetch more.
  const unfiltered = query.area === undefined && query.method === undefined && query.path === undefined && query.status === undefined && query.since === undefined
  const count = unfiltered && query.limit !== undefined ? Math.min(query.limit, capacity) : capacity
  const matching: JournalEntry[] = []
  for (const { id, text } of await store.read(world, count)) {
    const { prefix, entry } = JSON.parse(text) as SharedText
    const pattern = entry.route === null ? null : entry.route.slice(prefix.length)
    if (matches({ area: entry.area, method: entry.method, status: entry.status, time: Date.parse(entry.time), pathname: entry.path, prefix, pattern })) {
      matching.push({ id, ...entry })
    }
  }
  return lastOf(matching, query.limit)
}
