import { trustableCollection } from '../../kernel/data/trustable-schema.js'
import { particleRecord } from './schemas.js'

/** Area C's own collection: every particle, each pointing at its partner. */
export function createQuantumCollections() {
  return {
    particles: trustableCollection(particleRecord),
  }
}
export type QuantumCollections = ReturnType<typeof createQuantumCollections>
