import type * as z from 'zod'
import { type JsonSchema, toJsonSchema } from './json-schema.js'

export type { JsonSchema }

const DEFS = '#/$defs/'
const COMPONENTS = '#/components/schemas/'

/**
 * Turns zod schemas into OpenAPI 3.1 schemas with zod's own `z.toJSONSchema`.
 * A schema named with `.meta({ id: 'Product' })` becomes `components.schemas.Product`
 * and is referenced, so shared shapes appear once. Requests are converted as
 * input (what a client may send: defaults optional, unknown keys allowed),
 * responses as output (what the simulator sends: unknown keys refused, so a
 * response that grows a field no longer matches).
 *
 * @example
 * const components = new SchemaComponents()
 * const schema = components.convert(z.array(product), 'output') // { type: 'array', items: { $ref: '#/components/schemas/Product' } }
 */
export class SchemaComponents {
  /** `components.schemas` of the document. */
  readonly schemas: Record<string, JsonSchema> = {}
  /** name → the definition as zod produced it, to tell a clash from a repeat. */
  readonly #seen = new Map<string, string>()

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    // A transform's output has no JSON Schema: it becomes `{}` (anything) rather than
    // failing the whole document over one field; tuples become arrays (`toJsonSchema`).
    const { $schema: _dialect, $defs, ...root } = toJsonSchema(schema, io)
    const names = new Map<string, string>()
    for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      names.set(name, this.#nameFor(name, io, JSON.stringify(definition)))
    }
    for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      this.schemas[names.get(name)!] ??= rewriteRefs(definition, names) as JsonSchema
    }
    return rewriteRefs(root, names) as JsonSchema
  }

  /** The same name unless it already stands for a different shape (e.g. the input side of a named schema). */
  #nameFor(name: string, io: 'input' | 'output', json: string): string {
    const seen = this.#seen.get(name)
    if (seen === undefined || seen === json) {
      this.#seen.set(name, json)
      return name
    }
    const other = `${name}${io === 'input' ? 'Input' : 'Output'}`
    this.#seen.set(other, json)
    return other
  }
}

function rewriteRefs(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, names))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    // `{}` allows anything, as an absent keyword does; dropped so viewers do not invent `additionalProp1`.
    if (key === 'additionalProperties' && isEmptyObject(item)) continue
    if (key === '$ref' && typeof item === 'string' && item.startsWith(DEFS)) {
      const name = item.slice(DEFS.length)
      out[key] = `${COMPONENTS}${names.get(name) ?? name}`
    } else out[key] = rewriteRefs(item, names)
  }
  return out
}

function isEmptyObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0
}
