import * as z from 'zod'
import { parseOrThrow } from './validate.js'

/**
 * An integer query parameter in `[min, max]`. Query values arrive as text, so
 * `"2"` passes and `"2.5"`, `"abc"` or `""` fail with a readable message.
 *
 * @example
 * z.object({ page: intParam(1).default(1) })
 */
export function intParam(min: number, max?: number) {
  const bounded = z.int('must be an integer').min(min, `must be at least ${min}`)
  return (
    z
      .string()
      .regex(/^-?\d+$/, 'must be an integer')
      .transform(Number)
      // Piped into an integer schema so the OpenAPI document shows `integer` with its bounds (D12).
      .pipe(max === undefined ? bounded : bounded.max(max, `must be at most ${max}`))
  )
}

/**
 * Validates the query string of `url` (first value of each key) with `schema`;
 * problems are reported as `query.<name>` (D11, D12).
 *
 * @example
 * const { page, limit } = parseQuery(listQuery, url)
 */
export function parseQuery<S extends z.ZodType>(schema: S, url: URL): z.output<S> {
  // No prototype: `?constructor=x` or `?__proto__=x` is a parameter like any other, not an inherited name.
  const raw: Record<string, string> = Object.create(null)
  for (const [key, value] of url.searchParams) if (!(key in raw)) raw[key] = value
  return parseOrThrow(schema, raw, 'query')
}
