import { Query } from '@msw/data'
import type { Account, PublicAccount } from './account-schema.js'

/** A query on accounts: @msw/data's own `Query` (`q.where({ status: 'active' })`, `.and`, `.or`), or a function building one. */
export type UsersQuery = Query<PublicAccount> | ((query: Query<PublicAccount>) => Query<PublicAccount>)

/** What the view reads: the account store's accounts, in D12 order. */
export interface AccountSource {
  readonly size: number
  sorted(): readonly Account[]
}

/**
 * `sim.db.users`: the shared accounts, read-only, with the query calls of an
 * @msw/data collection (`findMany`, `findFirst`, `count`, `all`) and the same
 * `Query` conditions. Records come in creation order (D12) and are frozen:
 * change users through the API or `sim.importState()`. They carry no password
 * hash (`sim.snapshot()` has them, to restore a world). Accounts live in a
 * store of their own since a 100,000-user world had to fit (bench/README.md, "Scale").
 *
 * @example
 * sim.db.users.findMany((q) => q.where({ status: 'active' }))
 * sim.db.users.findFirst((q) => q.where({ username: 'ada' }))?.id
 * sim.db.users.count()
 */
export class UsersView {
  readonly #store: AccountSource

  constructor(store: AccountSource) {
    this.#store = store
  }

  /** Number of accounts. */
  count(): number {
    return this.#store.size
  }

  /** Every account, oldest first. */
  all(): PublicAccount[] {
    return this.#store.sorted().map(withoutHash)
  }

  /** The first account (D12 order) matching `query`; without one, the oldest account. */
  findFirst(query?: UsersQuery): PublicAccount | undefined {
    const compiled = query === undefined ? undefined : toQuery(query)
    const found = compiled ? this.#store.sorted().find((account) => compiled.test(account)) : this.#store.sorted()[0]
    return found && withoutHash(found)
  }

  /** Every account matching `query` (all without one), oldest first; `skip` and `take` page through them. */
  findMany(query?: UsersQuery, options: { skip?: number; take?: number } = {}): PublicAccount[] {
    const compiled = query === undefined ? undefined : toQuery(query)
    const matching = compiled ? this.#store.sorted().filter((account) => compiled.test(account)) : this.#store.sorted()
    const skip = options.skip ?? 0
    return (options.take === undefined ? matching.slice(skip) : matching.slice(skip, skip + options.take)).map(withoutHash)
  }
}

function toQuery(query: UsersQuery): Query<PublicAccount> {
  return query instanceof Query ? query : query(new Query<PublicAccount>())
}

/** A frozen copy without the hash: the store's record stays the only one that has it. */
function withoutHash({ password_hash: _hash, ...account }: Account): PublicAccount {
  return Object.freeze(account)
}
