/**
 * How the journal's ring holds an entry (see `Journal`): the order of its
 * texts in the arena, its plain fields, and the entry as read back out.
 */

/** An entry's texts, in the order they are written to the arena. */
export const URL_TEXT = 0
export const HEADER_TEXT = 1
export const REQUEST_BODY = 2
export const RESPONSE_BODY = 3
export const TEXTS = 4
/** Arena positions are moved back down past this (see `BodyArena.rebase`). */
export const REBASE_AT = 2 ** 29
/** Slots made before the ring first fills; they double up to `capacity`. */
export const FIRST_SLOTS = 64

/**
 * Fields kept as the pipeline gives them (`JournalRecord`) and shown as they
 * are, `null` when absent, in this order after `world`: a new such field is
 * its name here, plus its types in `JournalRecord` and `journalEntrySchema`.
 */
export const PLAIN_FIELDS = ['fault', 'proxy'] as const
export type PlainField = (typeof PLAIN_FIELDS)[number]
export type PlainColumns = Record<PlainField, Array<string | undefined>>

/** Empty columns for the plain fields, one array each. */
export function plainColumns(): PlainColumns {
  return Object.fromEntries(PLAIN_FIELDS.map((name) => [name, []])) as unknown as PlainColumns
}

/** One entry, read back out of the ring for `find`. */
export interface Held {
  id: number
  time: number
  durationMs: number
  method: string
  area: string
  prefix: string
  pattern: string | null
  status: number
  href: string
  pathname: string
  slot: number
}
