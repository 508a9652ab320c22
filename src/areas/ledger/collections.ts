import { Collection } from '@msw/data'
import { delegation, token, validator } from './schemas.js'

/** Area E's own collections (`sim.db.tokens`, `sim.db.validators`, `sim.db.delegations`). */
export function createLedgerCollections() {
  return {
    tokens: new Collection({ schema: token }),
    validators: new Collection({ schema: validator }),
    delegations: new Collection({ schema: delegation }),
  }
}
export type LedgerCollections = ReturnType<typeof createLedgerCollections>
