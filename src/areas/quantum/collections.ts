import { Collection } from '@msw/data'
import { particleRecord } from './schemas.js'

/** Area C's own collection: every particle, each pointing at its partner. */
export function createQuantumCollections() {
  return {
    particles: new Collection({ schema: particleRecord }),
  }
}
export type QuantumCollections = ReturnType<typeof createQuantumCollections>
