import * as z from 'zod'
import { type OptionMeta, optionMeta } from './option-meta.js'

/** An option found in a schema, with where it is and what it says about itself. */
export interface OptionField {
  /** E.g. `['ingestion', 'sensorWindow']`. */
  path: string[]
  schema: z.ZodType
  meta: OptionMeta
  /** The schema's default, when it has one. */
  defaultValue?: unknown
}

/**
 * The schema inside wrappers (optional, default, prefault, nullable, the input
 * side of a pipe), with the first metadata and default met on the way.
 */
export function unwrap(schema: z.ZodType): { inner: z.ZodType; meta: OptionMeta | undefined; defaultValue?: unknown } {
  let current = schema
  let meta = optionMeta(current)
  let defaultValue: unknown
  let hasDefault = false
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType; defaultValue?: unknown }
    if (def.type === 'default' && !hasDefault) {
      hasDefault = true
      defaultValue = def.defaultValue
    }
    const next = def.type === 'optional' || def.type === 'default' || def.type === 'prefault' || def.type === 'nullable' ? def.innerType : def.type === 'pipe' ? def.in : undefined
    if (next === undefined) break
    current = next
    meta ??= optionMeta(current)
  }
  return hasDefault ? { inner: current, meta, defaultValue } : { inner: current, meta }
}

/**
 * Every option of an options schema that has metadata, in shape order,
 * nested objects included (`ingestion.sensorWindow`).
 *
 * @example
 * fieldsOf(serverOptionsSchema).filter((field) => field.meta.cli)
 */
export function fieldsOf(schema: z.ZodType, path: string[] = []): OptionField[] {
  const { inner, meta, ...rest } = unwrap(schema)
  const here: OptionField[] = meta && path.length > 0 ? [{ path, schema, meta, ...('defaultValue' in rest ? { defaultValue: rest.defaultValue } : {}) }] : []
  if (!(inner instanceof z.ZodObject)) return here
  return [...here, ...Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, field]) => fieldsOf(field, [...path, key]))]
}

/**
 * The option an issue's path leads to: the deepest field of nested option
 * objects on the path (`ingestion.sensorWindow`); a `document` option
 * (`faults`) ends it, since what is inside is not an option.
 *
 * @example
 * optionAt(simulatorOptionsSchema, ['faults', 0, 'status']).meta?.document // 'faults option'
 */
export function optionAt(schema: z.ZodType, path: readonly PropertyKey[]): { path: string[]; meta: OptionMeta | undefined } {
  let found: { path: string[]; meta: OptionMeta | undefined } = { path: [], meta: undefined }
  let current = schema
  for (const [depth, key] of path.entries()) {
    const { inner } = unwrap(current)
    const next = inner instanceof z.ZodObject ? (inner.shape as Record<string, z.ZodType | undefined>)[String(key)] : undefined
    if (next === undefined) break
    current = next
    found = { path: path.slice(0, depth + 1).map(String), meta: unwrap(current).meta }
    if (found.meta?.document) break
  }
  return found
}
