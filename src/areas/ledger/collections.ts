import { trustableCollection } from '../../kernel/data/trustable-schema.js'
import { delegation, token, validator } from './schemas.js'

/** Area E's own collections (`sim.db.tokens`, `sim.db.validators`, `sim.db.delegations`). */
export function createLedgerCollections() {
  return {
    tokens: trustableCollection(token),
    validators: trustableCollection(validator),
    delegations: trustableCollection(delegation),
  }
}
export type LedgerCollections = ReturnType<typeof createLedgerCollections>
