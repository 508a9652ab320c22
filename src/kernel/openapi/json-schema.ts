import * as z from 'zod'
import { plainPattern } from '../schema/plain-pattern.js'

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = Record<string, unknown>

/**
 * `z.toJSONSchema` as the project publishes schemas (the OpenAPI document,
 * `scenario.schema.json`): draft 2020-12, a transform's output as `{}`
 * (anything) rather than a failure, and no tuples. A tuple is valid 2020-12
 * (`prefixItems`), but Prism 5's validator and other widely used OpenAPI tools
 * cannot read it, so it is written as an array with `items` and
 * `minItems`/`maxItems`: exact for the tuples the schemas have, whose elements
 * all share one schema (`[min, max]` latency, a pair's two particles), and for
 * one of mixed elements the union of them, its order said in the description.
 *
 * @example
 * toJsonSchema(z.tuple([z.int(), z.int()]), 'input') // { type: 'array', items: { type: 'integer', … }, minItems: 2, maxItems: 2, … }
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', override: published }) as JsonSchema
}

/** Each schema as published: patterns without needless escapes (see plainPattern), tuples as arrays. */
function published(context: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const json = context.jsonSchema
  if (typeof json.pattern === 'string') json.pattern = plainPattern(json.pattern)
  for (const part of (json.allOf ?? []) as JsonSchema[]) if (typeof part.pattern === 'string') part.pattern = plainPattern(part.pattern)
  withoutTuple(json)
}

function withoutTuple(json: JsonSchema): void {
  if (!Array.isArray(json.prefixItems)) return
  const elements = json.prefixItems as JsonSchema[]
  delete json.prefixItems
  const distinct = [...new Map(elements.map((element) => [JSON.stringify(element), element])).values()]
  // `items: false` (no rest element) is said by `maxItems` instead.
  const rest = json.items === false || json.items === undefined ? [] : [json.items as JsonSchema]
  if (rest.length > 0) json.items = undefined
  const all = [...distinct, ...rest.filter((item) => !distinct.some((element) => JSON.stringify(element) === JSON.stringify(item)))]
  if (all.length === 1) json.items = all[0]
  else if (all.length > 1) {
    json.items = { anyOf: all }
    const order = `In order: ${elements.map((_, index) => `item ${index + 1}`).join(', ')} as the tuple lists them.`
    json.description = typeof json.description === 'string' ? `${json.description} ${order}` : order
  }
  if (json.items === undefined) delete json.items
  json.minItems ??= elements.length
  if (rest.length === 0) json.maxItems ??= elements.length
}
