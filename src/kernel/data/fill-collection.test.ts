import { Collection } from '@msw/data'
import * as z from 'zod'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fillCollection } from './fill-collection.js'
import { trustableCollection } from './trustable-schema.js'

describe('fillCollection', () => {
  // @msw/data prints the issues of a record it refuses; the tests expect those refusals.
  beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => undefined))
  afterEach(() => void vi.restoreAllMocks())

  const setup = () => {
    const calls = { count: 0 }
    const schema = z.object({ id: z.string(), name: z.string().trim() }).refine(() => ++calls.count > 0)
    return { calls, schema }
  }
  const records = [
    { id: 'a', name: ' A ' },
    { id: 'b', name: ' B ' },
  ]

  it('validates each record, unless trusted', async () => {
    const { calls, schema } = setup()
    const items = trustableCollection(schema)
    await fillCollection(items, records)
    expect(calls.count).toBe(2)
    expect(items.all().map((item) => item.name)).toEqual(['A', 'B'])
    items.clear()
    await fillCollection(items, records, { trusted: true })
    expect(calls.count).toBe(2)
    expect(items.all().map((item) => item.name)).toEqual([' A ', ' B '])
    // Writes after a trusted load are validated again.
    await expect(items.create({ id: 'c' } as never)).rejects.toThrow(/does not match the schema/)
  })

  it('runs the create hooks for trusted records too', async () => {
    const { schema } = setup()
    const items = trustableCollection(schema)
    const seen: string[] = []
    items.hooks.on('create', (event) => void seen.push(event.data.record.id))
    await fillCollection(items, records, { trusted: true })
    expect(seen).toEqual(['a', 'b'])
  })

  it("validates records it was told to trust when the collection's schema is not trustable", async () => {
    const { calls, schema } = setup()
    const items = new Collection({ schema })
    await fillCollection(items, records, { trusted: true })
    expect(calls.count).toBe(2)
  })
})
