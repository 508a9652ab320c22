import { RecordIndex } from '../../kernel/data/record-index.js'
import type { CoreCollections } from './collections.js'
import type { Product } from './schemas.js'

/**
 * Products by id (D14): an indexed view over the `products` collection.
 *
 * @example
 * await catalogue.update('prod-1001', { price: 79.99 })
 */
export class ProductCatalogue {
  readonly #collections: CoreCollections
  readonly #byId: RecordIndex<Product>

  constructor(collections: CoreCollections) {
    this.#collections = collections
    this.#byId = new RecordIndex<Product>(collections.products, (item) => item.id)
  }

  get(id: string): Product | undefined {
    return this.#byId.get(id)
  }

  async update(id: string, changes: Partial<Omit<Product, 'id'>>): Promise<Product | undefined> {
    const current = this.#byId.get(id)
    if (!current) return undefined
    const next = await this.#collections.products.update(current as never, {
      data(draft) {
        for (const [key, value] of Object.entries(changes)) if (value !== undefined) (draft as Record<string, unknown>)[key] = value
      },
    })
    if (next) this.#byId.refresh(next)
    return next
  }
}
