/** Most names one `fields` list may hold (documented). */
export const MAX_FIELDS = 100

/**
 * What a `fields` list may be: 1 to {@link MAX_FIELDS} comma-separated names,
 * none empty or only white space (the same rule as `parseFieldList`; a test
 * holds them together). The OpenAPI document shows it as the parameter's pattern.
 */
export const FIELD_LIST_PATTERN = new RegExp(`^\\s*[^,\\s][^,]*(?:,\\s*[^,\\s][^,]*){0,${MAX_FIELDS - 1}}$`)

/**
 * Parses `fields=a,b` (D19): names are trimmed and de-duplicated, in order.
 * Returns the reason as a string when the list is malformed (an empty name,
 * more than {@link MAX_FIELDS} names).
 *
 * @example
 * parseFieldList('title, owner') // ['title', 'owner']
 * parseFieldList('title,,owner') // 'must be a comma-separated list of field names with no empty names'
 */
export function parseFieldList(text: string): string[] | string {
  const names = text.split(',').map((name) => name.trim())
  if (names.some((name) => name === '')) return 'must be a comma-separated list of field names with no empty names'
  if (names.length > MAX_FIELDS) return `must name at most ${MAX_FIELDS} fields (got ${names.length})`
  return [...new Set(names)]
}

/**
 * Keeps `id` and the named fields of a resource (D19). Unknown names are
 * ignored; only own keys count, so `fields=constructor` finds nothing
 * inherited. No list: the whole resource.
 *
 * @example
 * pickFields({ id: 1, title: 'A', owner: 'ada' }, ['owner', 'nope']) // { id: 1, owner: 'ada' }
 */
export function pickFields(resource: Record<string, unknown>, fields: readonly string[] | undefined): Record<string, unknown> {
  if (!fields) return resource
  const picked: Record<string, unknown> = { id: resource.id }
  for (const name of fields) if (name !== 'id' && Object.hasOwn(resource, name)) picked[name] = resource[name]
  return picked
}
