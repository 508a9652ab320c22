/** Keys refused at any depth of resource data: they name or reach prototypes (D19). */
export const FORBIDDEN_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype']
/** Top-level keys the simulator keeps itself: a resource's `id` and timestamps. */
export const RESERVED_KEYS: readonly string[] = ['id', 'created_at', 'updated_at']
/** Deepest nesting accepted in resource data; the object itself is level 1. */
export const MAX_DATA_DEPTH = 32
/** A hostile body could hold thousands of bad keys; the first ones say enough. */
const MAX_PROBLEMS = 20

export interface JsonProblem {
  path: Array<string | number>
  message: string
}

/**
 * Every reason `value` is not acceptable resource data: not a plain JSON object,
 * a forbidden key (`__proto__`, `constructor`, `prototype`) at any depth, a
 * value JSON cannot carry, or nesting deeper than {@link MAX_DATA_DEPTH}.
 * Works on the raw parsed input, so no copy can have turned a `__proto__` key
 * into a prototype first. Refusing those keys (rather than storing them) keeps
 * every later copy, merge and validation of the data safe by construction.
 *
 * @example
 * inspectJsonObject(JSON.parse('{"a":{"__proto__":{}}}')) // [{ path: ['a', '__proto__'], message: … }]
 */
export function inspectJsonObject(value: unknown): JsonProblem[] {
  if (!isPlainObject(value)) return [{ path: [], message: 'must be a JSON object (not an array, string, number or null)' }]
  const problems: JsonProblem[] = []
  walk(value, [], 1, problems)
  return problems
}

function walk(value: unknown, path: Array<string | number>, depth: number, problems: JsonProblem[]): void {
  if (problems.length >= MAX_PROBLEMS) return
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) problems.push({ path, message: 'must be a finite number' })
    return
  }
  const isArray = Array.isArray(value)
  if (!isArray && !isPlainObject(value)) {
    problems.push({ path, message: 'must be a JSON value (null, boolean, number, string, array or object)' })
    return
  }
  // Bounded recursion: the stack never grows past MAX_DATA_DEPTH frames.
  if (depth > MAX_DATA_DEPTH) {
    problems.push({ path, message: `nests deeper than ${MAX_DATA_DEPTH} levels` })
    return
  }
  if (isArray) {
    value.forEach((item, index) => walk(item, [...path, index], depth + 1, problems))
    return
  }
  for (const key of Object.keys(value)) {
    if (problems.length >= MAX_PROBLEMS) return
    if (FORBIDDEN_KEYS.includes(key)) {
      problems.push({ path: [...path, key], message: `"${key}" is not allowed as a key` })
      continue
    }
    walk((value as Record<string, unknown>)[key], [...path, key], depth + 1, problems)
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}
