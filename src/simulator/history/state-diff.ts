import * as z from 'zod'
import { sameJson } from '../../kernel/data/same-json.js'

/**
 * Which side a changed field or value was not on: JSON has no `undefined`, so
 * that side shows `null`, and this tells it from a `null` that was there.
 */
const absentSchema = z
  .enum(['before', 'after'])
  .optional()
  .describe('Present when the field was on one side only: `before` (it was not there before: added) or `after` (it is not there after: gone). That side shows `null`.')

/** A record that came or went: its key (see `collectionDiffSchema`) and the record. */
const recordEntrySchema = z.strictObject({ key: z.string(), record: z.unknown() })

/** One collection's changes (`accounts.users`, `core.products`…). */
export const collectionDiffSchema = z.strictObject({
  section: z.string().describe('The state section (`accounts`, `core`, `quantum`…).'),
  collection: z.string().describe('The list of records in it (`users`, `products`, `pairs`…).'),
  keyField: z.string().nullable().describe('What tells its records apart (`id`, `token_id`, `particles.id`…); null when nothing does, and records are matched by their content.'),
  added: z.array(recordEntrySchema),
  changed: z.array(
    z.strictObject({
      key: z.string(),
      fields: z.array(z.strictObject({ name: z.string(), before: z.unknown(), after: z.unknown(), absent: absentSchema })).describe('The top-level fields that changed.'),
    }),
  ),
  removed: z.array(recordEntrySchema),
})

/**
 * What a change of the world changed (issue 35), per section and collection:
 * records added, changed (with the fields that changed) and removed; values
 * that are no list of records (`seed`, `meta`, `core.ingestion`…) when they
 * changed.
 *
 * @example
 * const diff: StateDiff = { records: 1, collections: [{ section: 'core', collection: 'products', keyField: 'id', added: [], changed: [{ key: 'prod-1001', fields: [{ name: 'price', before: 89.99, after: 12.5 }] }], removed: [] }], values: [] }
 */
export const stateDiffSchema = z
  .strictObject({
    records: z.int().min(0).describe('Records added, changed and removed, in all.'),
    collections: z.array(collectionDiffSchema).describe('The collections with a change, in the state document’s order.'),
    values: z
      .array(z.strictObject({ path: z.string(), before: z.unknown(), after: z.unknown(), absent: absentSchema }))
      .describe('Other values that changed, by their path in the state document (`seed`, `meta.ids`, `core.ingestion`).'),
  })
  .meta({ id: 'StateDiff' })
/** What a change of the world changed (`stateDiffSchema`). */
export type StateDiff = z.infer<typeof stateDiffSchema>
/** One collection's changes (`collectionDiffSchema`). */
export type CollectionDiff = z.infer<typeof collectionDiffSchema>

type Json = Record<string, unknown>

/**
 * The difference between two state documents (`GET /__mock/state`): every
 * top-level object is a section, every array in it a collection of records
 * matched by their key (`id`, else a field named like one, else their
 * content). Unchanged parts cost next to nothing: they are skipped at once.
 *
 * @example
 * diffStates(before, after).collections[0] // { section: 'core', collection: 'products', changed: [{ key: 'prod-1001', fields: [{ name: 'price', … }] }], … }
 */
export function diffStates(before: unknown, after: unknown): StateDiff {
  const diff: StateDiff = { records: 0, collections: [], values: [] }
  const left = asObject(before)
  const right = asObject(after)
  for (const name of unionKeys(left, right)) {
    // A section that appears or goes is an empty one on the other side.
    const a = left[name] === undefined && isObject(right[name]) ? {} : left[name]
    const b = right[name] === undefined && isObject(left[name]) ? {} : right[name]
    if (sameJson(a, b)) continue
    if (!isObject(a) || !isObject(b)) {
      diff.values.push({ path: name, ...sides(a, b) })
      continue
    }
    for (const key of unionKeys(a, b)) {
      const x = a[key]
      const y = b[key]
      if (sameJson(x, y)) continue
      if (isRecords(x) && isRecords(y)) {
        const found = diffCollection(name, key, (x ?? []) as unknown[], (y ?? []) as unknown[])
        diff.records += found.added.length + found.changed.length + found.removed.length
        diff.collections.push(found)
      } else diff.values.push({ path: `${name}.${key}`, ...sides(x, y) })
    }
  }
  return diff
}

/** One collection's records, matched by key (records matched by content are shown by their place in their list). */
function diffCollection(section: string, collection: string, before: readonly unknown[], after: readonly unknown[]): CollectionDiff {
  const keyField = keyFieldOf(before, after)
  // Each side counts its own copies of a record matched by content.
  const keys = () => (keyField === null ? contentKeys() : (record: unknown) => keyValue(record, keyField)!)
  const shown = (key: string, index: number) => (keyField === null ? `#${index + 1}` : key)
  const old = new Map<string, number>()
  const oldKey = keys()
  before.forEach((record, index) => old.set(oldKey(record), index))
  const keyOf = keys()
  const result: CollectionDiff = { section, collection, keyField, added: [], changed: [], removed: [] }
  const seen = new Set<string>()
  after.forEach((record, index) => {
    const key = keyOf(record)
    seen.add(key)
    const was = old.get(key)
    if (was === undefined) result.added.push({ key: shown(key, index), record })
    else if (!sameJson(before[was], record)) result.changed.push({ key, fields: changedFields(before[was], record) })
  })
  for (const [key, index] of old) if (!seen.has(key)) result.removed.push({ key: shown(key, index), record: before[index] })
  return result
}

/** Fields a record's key may be read from, best first (a field named like an id is tried after these). */
const KEY_FIELDS = ['id', 'token_id', 'transaction_hash', 'address', 'hash', 'key']

/**
 * What tells a collection's records apart: the first field every record holds
 * as a string or number, different in each, on both sides; a list of records
 * with ids (a pair's `particles`) gives `particles.id`. `null` when none does.
 */
function keyFieldOf(before: readonly unknown[], after: readonly unknown[]): string | null {
  const sample = (after[0] ?? before[0]) as Json | undefined
  if (!isObject(sample)) return null
  const named = Object.keys(sample).filter((field) => /(_id|Id)$/.test(field) && !KEY_FIELDS.includes(field))
  const nested = Object.keys(sample).filter((field) => Array.isArray(sample[field]) && isObject((sample[field] as unknown[])[0]) && 'id' in ((sample[field] as Json[])[0] as Json))
  for (const field of [...KEY_FIELDS, ...named, ...nested.map((name) => `${name}.id`)]) {
    if (unique(before, field) && unique(after, field)) return field
  }
  return null
}

function unique(records: readonly unknown[], field: string): boolean {
  const keys = new Set<string>()
  for (const record of records) {
    const key = keyValue(record, field)
    if (key === undefined || keys.has(key)) return false
    keys.add(key)
  }
  return true
}

/** A record's key under `field` (`particles.id`: the ids of its `particles`, joined), `undefined` when it has none. */
function keyValue(record: unknown, field: string): string | undefined {
  if (!isObject(record)) return undefined
  const dot = field.indexOf('.')
  if (dot < 0) {
    const value = record[field]
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined
  }
  const items = record[field.slice(0, dot)]
  if (!Array.isArray(items) || items.length === 0) return undefined
  const ids = items.map((item) => keyValue(item, field.slice(dot + 1)))
  return ids.includes(undefined) ? undefined : ids.join(' + ')
}

/** Records without a key are matched by their content, the same record twice counted apart. */
function contentKeys(): (record: unknown) => string {
  const counts = new Map<string, number>()
  return (record) => {
    const text = JSON.stringify(record) ?? 'undefined'
    const count = (counts.get(text) ?? 0) + 1
    counts.set(text, count)
    return `${text}#${count}`
  }
}

function changedFields(before: unknown, after: unknown): CollectionDiff['changed'][number]['fields'] {
  const a = asObject(before)
  const b = asObject(after)
  const fields: CollectionDiff['changed'][number]['fields'] = []
  for (const name of unionKeys(a, b)) if (!sameJson(a[name], b[name])) fields.push({ name, ...sides(a[name], b[name]) })
  return fields
}

/** Both sides of a change, as JSON can carry them: a side that is not there is `null`, and `absent` names it. */
function sides(before: unknown, after: unknown): { before: unknown; after: unknown; absent?: 'before' | 'after' } {
  if (before === undefined) return { before: null, after, absent: 'before' }
  if (after === undefined) return { before, after: null, absent: 'after' }
  return { before, after }
}

function unionKeys(a: Json, b: Json): string[] {
  const keys = Object.keys(a)
  for (const key of Object.keys(b)) if (!(key in a)) keys.push(key)
  return keys
}

/** A list of records (or none): an array of scalars (`meta.random`) is a value. */
function isRecords(value: unknown): value is unknown[] | undefined {
  return value === undefined || (Array.isArray(value) && value.every(isObject))
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function asObject(value: unknown): Json {
  return isObject(value) ? value : {}
}
