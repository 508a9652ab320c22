import { Collection } from '@msw/data'

/** A Standard Schema (https://standardschema.dev), the interface @msw/data takes as a collection's `schema`. */
type StandardSchema = ConstructorParameters<typeof Collection>[0]['schema']

/**
 * A collection schema of the simulator's own: a Standard Schema that validates
 * with `schema` as always, except for the one `create` the simulator runs inside
 * `trusting(...)` with records it stored and exported itself (already valid).
 * @msw/data validates through the schema's public `~standard.validate`, so this
 * is how a bulk load skips re-validating, with no private field of @msw/data
 * touched. Record types are `schema`'s.
 *
 * The switch is on for one synchronous call and is used up by the first
 * validation: @msw/data 1.x validates before `create` first yields, so nothing
 * else (a `sim.db` write, an update, a request) can run while it is on. Were a
 * release to validate later, the record would simply be validated as usual.
 *
 * @example
 * const schema = new TrustableSchema(product)
 * const products = new Collection({ schema })
 * await schema.trusting(() => products.create(exported)) // not validated again
 */
export class TrustableSchema<S extends StandardSchema> {
  readonly '~standard': S['~standard']
  #trusted = false

  constructor(schema: S) {
    const standard = schema['~standard']
    this['~standard'] = {
      version: 1,
      vendor: 'multi-area-mock',
      ...(standard.types === undefined ? {} : { types: standard.types }),
      validate: (value: unknown) => {
        if (!this.#trusted) return standard.validate(value)
        this.#trusted = false
        return { value }
      },
    } as S['~standard']
  }

  /**
   * Calls `create` with the next validation taking its value as valid, and
   * turns that off again as soon as `create` returns (its promise, unsettled).
   */
  trusting<T>(create: () => T): T {
    this.#trusted = true
    try {
      return create()
    } finally {
      this.#trusted = false
    }
  }
}

/** The trustable schema behind each collection made by `trustableCollection`. */
const schemas = new WeakMap<object, TrustableSchema<StandardSchema>>()

/**
 * A new @msw/data collection of `schema`'s records, whose schema is a
 * `TrustableSchema` of it (`fillCollection` finds it with `trustableSchemaOf`).
 *
 * @example
 * const products = trustableCollection(product) // sim.db.products
 */
export function trustableCollection<S extends StandardSchema>(schema: S): Collection<TrustableSchema<S>> {
  const trustable = new TrustableSchema(schema)
  const collection = new Collection({ schema: trustable })
  schemas.set(collection, trustable)
  return collection
}

/**
 * The `TrustableSchema` of a collection made by `trustableCollection`;
 * `undefined` for any other collection.
 *
 * @example
 * trustableSchemaOf(sim.db.products)?.trusting(() => sim.db.products.create(record))
 */
// biome-ignore lint/suspicious/noExplicitAny: a collection of any record type (@msw/data's Collection is invariant in its schema)
export function trustableSchemaOf(collection: Collection<any>): TrustableSchema<StandardSchema> | undefined {
  return schemas.get(collection)
}
