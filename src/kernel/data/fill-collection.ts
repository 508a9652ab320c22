import type { Collection } from '@msw/data'

/** A Standard Schema that takes any value as it is. */
const asIs = {
  '~standard': { version: 1, vendor: 'multi-area-mock', validate: (value: unknown) => ({ value }) },
} as const

/**
 * Creates `records` in `collection`, one after another. `trusted`: they are
 * what this simulator stored and exported itself (a `reset()`, a world seeded
 * from a kept load), already valid, so the collection's schema is not run on
 * each again (most of a reset's cost); @msw/data still copies each record and
 * runs its hooks. Anything else (scenarios, state documents, `sim.db` writes)
 * is validated as always.
 *
 * @example
 * await fillCollection(collections.products, state.products, { trusted: true })
 */
export async function fillCollection(collection: Collection<any>, records: Iterable<object>, options: { trusted?: boolean | undefined } = {}): Promise<void> {
  if (!options.trusted) {
    for (const record of records) await collection.create(record)
    return
  }
  // @msw/data 1.x reads `options.schema` on every create (private in its types, a plain field at run time).
  const settings = (collection as unknown as { options: { schema: unknown } }).options
  const schema = settings.schema
  settings.schema = asIs
  try {
    for (const record of records) await collection.create(record)
  } finally {
    settings.schema = schema
  }
}
