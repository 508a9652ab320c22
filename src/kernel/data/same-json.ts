/**
 * `true` when two JSON-like values (plain objects, arrays, strings, numbers,
 * booleans, `null`, `undefined` fields) are equal all the way down. The same
 * object on both sides is equal without a look inside, so state documents that
 * share frozen records compare in a blink. Key order does not matter; an
 * `undefined` field equals a missing one, as in JSON.
 *
 * @example
 * sameJson({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] }) // true
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const left = a as Record<string, unknown>
  const right = b as Record<string, unknown>
  let count = 0
  for (const key in left) {
    const value = left[key]
    if (value === undefined) continue
    count++
    if (!sameJson(value, right[key])) return false
  }
  for (const key in right) if (right[key] !== undefined) count--
  return count === 0
}
