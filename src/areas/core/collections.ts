import { trustableCollection } from '../../kernel/data/trustable-schema.js'
import { product } from './schemas.js'

/**
 * Area B's own collections: the product catalogue. Ingested points are not a
 * collection but a bounded window of typed arrays (`ReadingWindow`, D15): one
 * @msw/data record per sensor and batch, with an object per point, held 2 M
 * points in 486 MiB of RSS (bench/README.md, "Ingestion memory").
 */
export function createCoreCollections() {
  return {
    products: trustableCollection(product),
  }
}
export type CoreCollections = ReturnType<typeof createCoreCollections>
