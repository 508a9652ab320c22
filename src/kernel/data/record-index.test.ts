import { Collection } from '@msw/data'
import * as z from 'zod'
import { describe, expect, it } from 'vitest'
import { RecordIndex } from './record-index.js'

describe('RecordIndex', () => {
  const setup = async () => {
    const items = new Collection({ schema: z.object({ id: z.string(), name: z.string() }) })
    for (const id of ['a', 'b', 'c', 'd']) await items.create({ id, name: id.toUpperCase() })
    return { items, index: new RecordIndex<{ id: string; name: string }>(items, (item) => item.id) }
  }

  it('follows creates, updates and deletes made on the collection directly', async () => {
    const { items, index } = await setup()
    await items.create({ id: 'e', name: 'E' })
    await items.update((q) => q.where({ id: 'b' }), { data: (draft) => void (draft.name = 'Bee') })
    items.delete((q) => q.where({ id: 'c' }))
    expect(index.get('e')?.name).toBe('E')
    expect(index.get('b')?.name).toBe('Bee')
    expect(index.get('c')).toBeUndefined()
  })

  it('forgets every record after clear(), although clear() fires only half the delete hooks', async () => {
    const { items, index } = await setup()
    items.clear()
    for (const id of ['a', 'b', 'c', 'd']) expect(index.get(id), id).toBeUndefined()
    await items.create({ id: 'b', name: 'new B' })
    expect(index.get('b')?.name).toBe('new B')
  })
})
