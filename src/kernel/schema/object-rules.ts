import type * as z from 'zod'
import type { JsonSchema } from '../openapi/json-schema.js'

/**
 * A rule on which fields of an object go together, declared once: the check
 * the server runs and the JSON Schema the OpenAPI document says it with come
 * from the same declaration, so they cannot drift apart.
 */
export interface ObjectRule {
  /** What the document says (one entry of the object's `allOf`). */
  jsonSchema: JsonSchema
  /** `true` when the parsed object keeps the rule. */
  test(value: Record<string, unknown>): boolean
  message: string
  /** Where the problem is reported; default: the object itself. */
  path?: string[]
}

/**
 * At least one of `keys` is present.
 *
 * @example
 * atLeastOneOf(['mode', 'set', 'advance'])
 */
export function atLeastOneOf(keys: readonly string[], message = `give at least one of ${keys.join(', ')}`): ObjectRule {
  return {
    jsonSchema: { anyOf: keys.map((key) => ({ required: [key] })) },
    test: (value) => keys.some((key) => value[key] !== undefined),
    message,
  }
}

/**
 * `a` and `b` are never both present.
 *
 * @example
 * notTogether('status', 'drop') // reported on `drop`
 */
export function notTogether(a: string, b: string, message = `${a} and ${b} exclude each other`): ObjectRule {
  return {
    jsonSchema: { not: present([a, b]) },
    test: (value) => value[a] === undefined || value[b] === undefined,
    message,
    path: [b],
  }
}

/**
 * `key` may be present only when `other` is present and one of `values`.
 *
 * @example
 * onlyWhen('retryAfter', 'status', [429, 503], 'only a 429 or 503 carries Retry-After')
 */
export function onlyWhen(key: string, other: string, values: readonly (string | number)[], message: string): ObjectRule {
  return {
    jsonSchema: { anyOf: [{ not: present([key]) }, { required: [other], properties: { [other]: { enum: [...values] } } }] },
    test: (value) => value[key] === undefined || values.includes(value[other] as string | number),
    message,
    path: [key],
  }
}

/**
 * "Every one of `keys` is present", for use under `not`. Each key is also a
 * property that allows anything (`{}`), which changes nothing: linters
 * (Redocly) ask that a required key be a declared property, and under `not`
 * they do not look at the object's own `properties`.
 */
function present(keys: readonly string[]): JsonSchema {
  return { required: [...keys], properties: Object.fromEntries(keys.map((key) => [key, {}])) }
}

/**
 * `schema` with `rules` checked after its own checks and stated in its JSON
 * Schema as `allOf` (the document's `anyOf`/`not` combinations).
 *
 * @example
 * const clockBody = withRules(z.object({ mode, set, advance }), [atLeastOneOf(['mode', 'set', 'advance'])])
 */
export function withRules<S extends z.ZodType<Record<string, unknown>>>(schema: S, rules: readonly ObjectRule[]): S {
  return schema
    .superRefine((value, ctx) => {
      for (const rule of rules) {
        if (!rule.test(value)) ctx.addIssue({ code: 'custom', message: rule.message, ...(rule.path ? { path: rule.path } : {}) })
      }
    })
    .meta({ allOf: rules.map((rule) => rule.jsonSchema) }) as S
}
