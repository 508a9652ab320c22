import type { z } from 'zod'
import { type ErrorDetail, validationFailed } from '../errors/api-error.js'
import { validationMessage } from '../schema/validation-messages.js'

/**
 * `schema.safeParse(input)` with the project's messages for every issue the
 * schema does not word itself (`validationMessage`). Every parse of user input
 * (requests, scenarios, state, options) goes through here.
 *
 * @example
 * const result = safeParse(scenarioSchema, json)
 */
export function safeParse<S extends z.ZodType>(schema: S, input: unknown): z.ZodSafeParseResult<z.output<S>> {
  // Why twice on failure: zod's parse with an error map costs ~10x one without it, on every request (bench/README.md#latest-full-run).
  const result = schema.safeParse(input)
  return result.success ? result : schema.safeParse(input, { error: validationMessage })
}

/**
 * Parses `input` with a zod schema, or throws 400 `validation_failed` listing
 * every issue (D11). Paths are dotted (`items.3.value`); the root is `""`.
 *
 * @example
 * const body = parseOrThrow(createUserBody, await readJsonBody(request, { limit }))
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, pathPrefix = ''): z.output<S> {
  const result = safeParse(schema, input)
  if (result.success) return result.data
  throw validationFailed(issuesToDetails(result.error.issues, pathPrefix))
}

/**
 * Converts zod issues to D9 `details` entries. A union whose input has the
 * type of exactly one option (`scenario`: a name or an object; given an
 * object) reports that option's own problems, not "matches none of the forms".
 */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[], pathPrefix = ''): ErrorDetail[] {
  return issues
    .flatMap((issue) => openUnion(issue, []))
    .map(({ issue, path }) => ({
      path: [pathPrefix, ...path, ...issue.path.map(String)].filter((part) => part !== '').join('.'),
      message: issue.message,
    }))
}

function openUnion(issue: z.core.$ZodIssue, path: string[]): Array<{ issue: z.core.$ZodIssue; path: string[] }> {
  if (issue.code !== 'invalid_union') return [{ issue, path }]
  const typed = issue.errors.filter((branch) => !branch.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0))
  if (typed.length !== 1 || typed[0]!.length === 0) return [{ issue, path }]
  const base = [...path, ...issue.path.map(String)]
  return typed[0]!.flatMap((inner) => openUnion(inner, base))
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
