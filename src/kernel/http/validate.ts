import type { z } from 'zod'
import { type ErrorDetail, validationFailed } from '../errors/api-error.js'

/**
 * Parses `input` with a zod schema, or throws 400 `validation_failed` listing
 * every issue (D11). Paths are dotted (`items.3.value`); the root is `""`.
 *
 * @example
 * const body = parseOrThrow(createUserBody, await readJsonBody(request, { limit }))
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, pathPrefix = ''): z.output<S> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  throw validationFailed(issuesToDetails(result.error.issues, pathPrefix))
}

/** Converts zod issues to D9 `details` entries. */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[], pathPrefix = ''): ErrorDetail[] {
  return issues.map((issue) => ({
    path: [pathPrefix, ...issue.path.map(String)].filter((part) => part !== '').join('.'),
    message: issue.message,
  }))
}

/**
 * A zod refinement from a parser that throws on bad input, so a schema and the
 * code that later uses the value agree on what is valid.
 *
 * @example
 * z.string().refine(acceptedBy(parseInstant), 'must be an ISO 8601 instant')
 */
export function acceptedBy<T>(parse: (value: T) => unknown): (value: T) => boolean {
  return (value) => {
    try {
      parse(value)
      return true
    } catch {
      return false
    }
  }
}
