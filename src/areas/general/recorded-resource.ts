import { FORBIDDEN_KEYS, RESERVED_KEYS } from './resources/json-object.js'
import { isSecretEntry } from '../../kernel/http/secret-key.js'

/**
 * How a resource's answer is kept while recording: one field per top-level
 * data key (`data.<key>`), so an answer filtered with `fields=` updates the
 * keys it shows and no others; `withheld.<key>` lists the paths under that
 * key that were not recorded; `created_at`, `updated_at` as shown.
 */
export const DATA_PREFIX = 'data.'
export const WITHHELD_PREFIX = 'withheld.'

/**
 * The record fields a resource answer shows: each data key with its value
 * (keys naming a secret, values that look like a credential whatever their
 * key (`"debug": "Bearer …"`, a JWT), and `__proto__`, `constructor`,
 * `prototype`, left out at any depth, their paths listed), the timestamps
 * shown, and, for each name `fields=` asked for that the answer does not
 * hold, the key as gone.
 *
 * @example
 * resourceFields({ id: 3, title: 'Q3', api_key: 'k', created_at: t, updated_at: t })
 * // { 'data.title': 'Q3', 'withheld.title': [], 'data.api_key': undefined, 'withheld.api_key': ['api_key'], created_at: t, updated_at: t }
 */
export function resourceFields(view: Readonly<Record<string, unknown>>, asked?: readonly string[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(view)) {
    if (key === 'id') continue
    if (RESERVED_KEYS.includes(key)) {
      fields[key] = value
      continue
    }
    const withheld: string[] = []
    const kept = withoutSecrets(value, key, key, withheld)
    fields[`${DATA_PREFIX}${key}`] = kept
    fields[`${WITHHELD_PREFIX}${key}`] = withheld
  }
  for (const name of asked ?? []) {
    if (RESERVED_KEYS.includes(name) || Object.hasOwn(view, name)) continue
    // Asked for and not answered: the resource has no such key (any more).
    fields[`${DATA_PREFIX}${name}`] = undefined
    fields[`${WITHHELD_PREFIX}${name}`] = []
  }
  return fields
}

/**
 * A resource's data and what was withheld from it, from its recorded fields,
 * keys in the order first seen (the order its answers showed them).
 *
 * @example
 * resourceData({ 'data.title': 'Q3', 'data.old': undefined, 'withheld.api_key': ['api_key'] }) // { data: { title: 'Q3' }, withheld: ['api_key'] }
 */
export function resourceData(fields: Readonly<Record<string, unknown>>): { data: Record<string, unknown>; withheld: string[] } {
  const data: Record<string, unknown> = {}
  const withheld: string[] = []
  for (const [name, value] of Object.entries(fields)) {
    if (name.startsWith(DATA_PREFIX) && value !== undefined) define(data, name.slice(DATA_PREFIX.length), value)
    if (name.startsWith(WITHHELD_PREFIX)) withheld.push(...(value as string[]))
  }
  return { data, withheld }
}

/**
 * A copy of the JSON value under `key` (at `path`) without what a recording
 * never keeps (the journal's rule, `isSecretEntry`); `undefined` when the
 * value under `key` is such.
 */
function withoutSecrets(value: unknown, key: string | number, path: string, withheld: string[]): unknown {
  // An array's item has no name: only its value can make it a secret.
  const name = typeof key === 'string' ? key : ''
  if (isSecretEntry(name, value) || FORBIDDEN_KEYS.includes(name)) {
    withheld.push(path)
    return undefined
  }
  // A withheld item reads as `null`, so the others keep their places.
  if (Array.isArray(value)) return value.map((item, index) => withoutSecrets(item, index, `${path}.${index}`, withheld) ?? null)
  if (value === null || typeof value !== 'object') return value
  const copy: Record<string, unknown> = {}
  for (const [inner, innerValue] of Object.entries(value)) {
    const kept = withoutSecrets(innerValue, inner, `${path}.${inner}`, withheld)
    if (kept !== undefined) define(copy, inner, kept)
  }
  return copy
}

/** Sets a key as an own property, even `__proto__` (never a prototype). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}
