import type * as z from 'zod'

/**
 * The project's sentence for every zod issue a schema does not word itself,
 * phrased to follow the field's path (`email: must be a valid email address`):
 * no library default (`Invalid input: expected string, received undefined`)
 * reaches a user. Passed per parse (`safeParse(input, { error })`), never set
 * with `z.config()`, which is global: a simulator must not change the messages
 * of the zod its host application uses. A message a schema gives itself wins.
 *
 * @example
 * schema.safeParse(input, { error: validationMessage })
 */
export const validationMessage: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${TYPE_NAMES[expectedType(issue)] ?? issue.expected}, not ${received(issue.input)}`
    case 'too_small':
      return bound(issue.origin, 'at least', 'more than', issue.minimum, issue.inclusive !== false)
    case 'too_big':
      return bound(issue.origin, 'at most', 'less than', issue.maximum, issue.inclusive !== false)
    case 'invalid_format':
      return formatMessage(issue.format, (issue as { pattern?: string }).pattern)
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`
    case 'unrecognized_keys':
      return `has ${issue.keys.length === 1 ? 'an unknown field' : 'unknown fields'}: ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}`
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${literal(issue.values[0])}` : `must be one of ${issue.values.map(literal).join(', ')}`
    case 'invalid_union':
      return 'matches none of the accepted forms'
    case 'invalid_key':
      return 'has a key that is not allowed'
    case 'invalid_element':
      return 'has a value that is not allowed'
    default:
      return 'is invalid'
  }
}

/** `z.int()` reports a non-number as `expected: 'number'`; its format says it wants an integer. */
function expectedType(issue: { expected: string; inst?: unknown }): string {
  const format = (issue.inst as { _zod?: { def?: { format?: unknown } } } | undefined)?._zod?.def?.format
  return issue.expected === 'number' && typeof format === 'string' && format.includes('int') ? 'int' : issue.expected
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'a JSON object',
  tuple: 'an array',
  record: 'a JSON object',
  null: 'null',
  literal: 'a fixed value',
}

const UNITS: Readonly<Record<string, [string, string]>> = {
  string: ['character', 'characters'],
  array: ['item', 'items'],
  set: ['item', 'items'],
  file: ['byte', 'bytes'],
}

function bound(origin: string, inclusive: string, exclusive: string, limit: unknown, isInclusive: boolean): string {
  const value = typeof limit === 'bigint' ? limit.toString() : Number(limit)
  const unit = UNITS[origin]
  if (unit) {
    if (origin === 'string' && value === 1 && inclusive === 'at least') return 'must not be empty'
    return `must ${origin === 'string' ? 'be' : 'contain'} ${isInclusive ? inclusive : exclusive} ${value} ${value === 1 ? unit[0] : unit[1]}`
  }
  if (origin === 'date')
    return `must be ${isInclusive ? (inclusive === 'at least' ? 'on or after' : 'on or before') : inclusive === 'at least' ? 'after' : 'before'} ${new Date(Number(limit)).toISOString()}`
  return `must be ${isInclusive ? inclusive : exclusive} ${value}`
}

const FORMATS: Readonly<Record<string, string>> = {
  datetime: 'must be an ISO 8601 date-time with a time zone, such as 2026-01-01T00:00:00Z',
  date: 'must be a date such as 2026-01-01',
  time: 'must be a time such as 12:00:00',
  duration: 'must be an ISO 8601 duration such as PT15M',
  email: 'must be a valid email address',
  url: 'must be a URL',
  uuid: 'must be a UUID',
}

function formatMessage(format: string, pattern: string | undefined): string {
  if (FORMATS[format]) return FORMATS[format]
  if (format === 'regex' && pattern) return `must match the pattern ${pattern}`
  return `must be a valid ${format}`
}

function literal(value: unknown): string {
  return typeof value === 'bigint' ? value.toString() : (JSON.stringify(value) ?? String(value))
}

function received(input: unknown): string {
  if (input === null) return 'null'
  if (Array.isArray(input)) return 'an array'
  switch (typeof input) {
    case 'string':
      return 'a string'
    case 'number':
      return Number.isNaN(input) ? 'NaN' : 'a number'
    case 'boolean':
      return input ? 'true' : 'false'
    case 'object':
      return 'an object'
    default:
      return typeof input
  }
}
