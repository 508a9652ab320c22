import { Collection } from '@msw/data'
import { product, reading } from './schemas.js'

/** Area B's own collections: the product catalogue and stored sensor readings. */
export function createCoreCollections() {
  return {
    products: new Collection({ schema: product }),
    readings: new Collection({ schema: reading }),
  }
}
export type CoreCollections = ReturnType<typeof createCoreCollections>
