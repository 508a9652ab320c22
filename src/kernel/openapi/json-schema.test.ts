import * as z from 'zod'
import { describe, expect, it } from 'vitest'
import { toJsonSchema } from './json-schema.js'

describe('toJsonSchema', () => {
  it('writes a tuple of one element schema as an array with items and a fixed length, never prefixItems', () => {
    const json = toJsonSchema(z.tuple([z.int().min(0), z.int().min(0)]), 'input')
    expect(json).toMatchObject({ type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 2, maxItems: 2 })
    expect(JSON.stringify(json)).not.toContain('prefixItems')
  })

  it('writes a tuple of mixed elements as an array of their union, saying the order in words', () => {
    const json = toJsonSchema(z.tuple([z.string(), z.int()]).describe('A name and a count.'), 'input')
    expect(json.items).toEqual({ anyOf: [{ type: 'string' }, expect.objectContaining({ type: 'integer' })] })
    expect(json).toMatchObject({ minItems: 2, maxItems: 2 })
    expect(json.description).toMatch(/^A name and a count\. In order:/)
  })

  it('keeps a tuple nested in an object and the rest of the schema as zod writes it', () => {
    const json = toJsonSchema(z.object({ range: z.tuple([z.number(), z.number()]).optional(), name: z.string() }), 'output') as any
    expect(json.properties.range).toEqual({ type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 })
    expect(json.required).toEqual(['name'])
  })
})
