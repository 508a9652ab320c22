import { Collection } from '@msw/data'
import * as z from 'zod'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TrustableSchema, trustableCollection, trustableSchemaOf } from './trustable-schema.js'

/** A schema that counts its validations and trims names (so a validated record differs from its input). */
const counted = () => {
  const calls = { count: 0 }
  const schema = z.object({ id: z.string(), name: z.string().trim() }).refine(() => ++calls.count > 0)
  return { schema, calls }
}

describe('TrustableSchema', () => {
  // @msw/data prints the issues of a record it refuses; the tests expect those refusals.
  beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => undefined))
  afterEach(() => void vi.restoreAllMocks())

  it('validates as its schema does, with the same record types', async () => {
    const { schema, calls } = counted()
    const items = trustableCollection(schema)
    const created = await items.create({ id: 'a', name: '  Ada ' })
    const name: string = created.name
    expect(name).toBe('Ada')
    expect(calls.count).toBe(1)
    await expect(items.create({ id: 'b' } as never)).rejects.toThrow(/does not match the schema/)
    await items.update((q) => q.where({ id: 'a' }), { data: (draft) => void (draft.name = ' Bea ') })
    expect(items.findFirst((q) => q.where({ id: 'a' }))?.name).toBe('Bea')
  })

  it('takes the record as it is for the one create run inside trusting(), then validates again', async () => {
    const { schema, calls } = counted()
    const items = trustableCollection(schema)
    const trustable = trustableSchemaOf(items)!
    await trustable.trusting(() => items.create({ id: 'a', name: ' kept as is ' }))
    expect(calls.count).toBe(0)
    expect(items.findFirst((q) => q.where({ id: 'a' }))?.name).toBe(' kept as is ')
    await items.create({ id: 'b', name: ' b ' })
    expect(calls.count).toBe(1)
  })

  it('trusts nothing else that runs while a trusted create is pending, and is off again if create throws', async () => {
    const { schema } = counted()
    const items = trustableCollection(schema)
    const trustable = trustableSchemaOf(items)!
    const pending = trustable.trusting(() => items.create({ id: 'a', name: 'A' }))
    await expect(items.create({ id: 'b' } as never)).rejects.toThrow(/does not match the schema/)
    await pending
    expect(() =>
      trustable.trusting(() => {
        throw new Error('boom')
      }),
    ).toThrow('boom')
    await expect(items.create({ name: 'no id' } as never)).rejects.toThrow(/does not match the schema/)
  })

  it("is a Standard Schema of its own, usable as any collection's schema", async () => {
    const schema = new TrustableSchema(z.object({ id: z.number() }))
    expect(schema['~standard']).toMatchObject({ version: 1, vendor: 'multi-area-mock' })
    const items = new Collection({ schema })
    await schema.trusting(() => items.create({ id: 'not a number' } as never))
    await expect(items.create({ id: 'not a number' } as never)).rejects.toThrow(/does not match the schema/)
    expect(trustableSchemaOf(items)).toBeUndefined()
  })
})
