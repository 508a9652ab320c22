import type { Collection } from '@msw/data'
import { trustableSchemaOf } from './trustable-schema.js'

/**
 * Creates `records` in `collection`, one after another. `trusted`: they are
 * what this simulator stored and exported itself (a `reset()`, a world seeded
 * from a kept load), already valid, so the collection's schema is not run on
 * each again (most of a reset's cost): each `create` runs with the
 * collection's `TrustableSchema` switched on (see trustable-schema.ts); a
 * collection not made by `trustableCollection` validates them as usual.
 * @msw/data still copies each record and runs its hooks. Anything else
 * (scenarios, state documents, `sim.db` writes) is validated as always.
 *
 * @example
 * await fillCollection(collections.products, state.products, { trusted: true })
 */
// biome-ignore lint/suspicious/noExplicitAny: a collection of any record type (@msw/data's Collection is invariant in its schema)
export async function fillCollection(collection: Collection<any>, records: Iterable<object>, options: { trusted?: boolean | undefined } = {}): Promise<void> {
  const schema = options.trusted ? trustableSchemaOf(collection) : undefined
  if (schema === undefined) {
    for (const record of records) await collection.create(record)
    return
  }
  for (const record of records) await schema.trusting(() => collection.create(record))
}
