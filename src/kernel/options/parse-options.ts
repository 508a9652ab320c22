import * as z from 'zod'
import { ConfigError } from '../errors/config-error.js'
import { ScenarioError } from '../errors/scenario-error.js'
import { safeParse } from '../http/validate.js'
import { type OptionField, optionAt, unwrap } from './option-fields.js'
import type { OptionMeta } from './option-meta.js'

/**
 * Validates options with their schema (`createSimulator`, `startServer`,
 * `startBrowserSimulator`); the first problem throws a `ConfigError` of one
 * line naming the option, its value and its flag:
 * `Invalid ingestion.window "-1" (--ingest-window): expected a number of points, an integer of 0 or more.`
 * A `document` option's problems are listed like a scenario's (`ScenarioError`).
 *
 * @example
 * const parsed = parseOptions(simulatorOptionsSchema, { seed: 7 })
 */
export function parseOptions<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = safeParse(schema, input ?? {})
  if (result.success) return result.data
  throw optionError(schema, input, result.error.issues)
}

function optionError(schema: z.ZodType, input: unknown, issues: readonly z.core.$ZodIssue[]): ConfigError {
  const first = issues[0]!
  const option = optionAt(schema, first.path)
  const document = option.meta?.document
  if (document) {
    const depth = option.path.length
    const inside = issues.filter((issue) => option.path.every((key, index) => String(issue.path[index]) === key))
    return new ScenarioError(
      document,
      inside.map((issue) => ({ ...issue, path: issue.path.slice(depth) })),
    )
  }
  const path = first.path.map(String).join('.') || 'options'
  const label = option.meta?.label ?? path
  const flag = option.meta?.cli ? longFlag(option.meta.cli.flag) : undefined
  const where = label === path ? (flag ? ` (${flag})` : '') : ` (${[path, flag].filter(Boolean).join(', ')})`
  return new ConfigError(`Invalid ${label}${shown(option.meta, valueAt(input, first.path))}${where}: ${sentence(first.message)}`)
}

/**
 * Checks one flag's text as the CLI reads it: its `fromText` conversion (which
 * may throw with its own message), then the option's schema. The value is
 * what the options get (the library checks them all again); an error is the
 * message to report after the flag, naming the value by the option's label.
 *
 * @example
 * flagValue(field, 'lots') // { error: 'expected a number of points, an integer of 0 or more.' }
 */
export function flagValue(field: Pick<OptionField, 'schema' | 'meta'>, text: string): { value: unknown } | { error: string } {
  let value: unknown
  try {
    value = field.meta.cli?.fromText ? field.meta.cli.fromText(text) : text
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
  const checked = field.meta.cli?.repeatable ? elementOf(field.schema) : field.schema
  const result = safeParse(checked, value)
  if (result.success) return { value }
  const label = field.meta.label
  return { error: `${label ? `Invalid ${label}${shown(field.meta, text)}: ` : ''}${sentence(result.error.issues[0]!.message)}` }
}

/** `--port` of `-p, --port <port>`. */
export function longFlag(flag: string): string {
  return /--[\w-]+/.exec(flag)?.[0] ?? flag
}

function elementOf(schema: z.ZodType): z.ZodType {
  const { inner } = unwrap(schema)
  return inner instanceof z.ZodArray ? (inner.element as z.ZodType) : inner
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined
  return value
}

/** The value as a message shows it, in quotes; nothing for a secret. */
function shown(meta: OptionMeta | undefined, value: unknown): string {
  if (meta?.secret) return ''
  if (typeof value === 'string') return ` "${value.length > 80 ? `${value.slice(0, 80)}…` : value}"`
  if (value === null || typeof value !== 'object') return ` "${typeof value === 'function' ? 'a function' : String(value)}"`
  const json = JSON.stringify(value) ?? String(value)
  return ` "${json.length > 80 ? `${json.slice(0, 80)}…` : json}"`
}

function sentence(message: string): string {
  return /[.!?]$/.test(message) ? message : `${message}.`
}
