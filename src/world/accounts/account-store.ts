import { Collection } from '@msw/data'
import { ApiError } from '../../kernel/api-error.js'
import { RecordIndex } from '../../kernel/record-index.js'
import type { World } from '../world.js'
import { type Account, accountRecord, type UserStatus } from './account-schema.js'

/** The @msw/data collection of accounts, as exposed on `sim.db.users`. */
export type AccountCollection = Collection<typeof accountRecord>

/** Orders by `created_at`, then `id` (D12). */
export function byCreation(a: { created_at: string; id: string }, b: { created_at: string; id: string }): number {
  return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/**
 * The shared accounts behind Areas A, B and D (D5): one collection, unique
 * usernames (case-insensitive) across the world, passwords kept only as salted
 * hashes. Lookups by id and username are indexed; the creation-ordered list is
 * cached until the next write.
 *
 * @example
 * const accounts = new AccountStore(world)
 * await accounts.register({ username: 'ada', email: 'ada@example.com', password: 'Passw0rd!' })
 */
export class AccountStore {
  readonly collection: AccountCollection
  readonly #world: World
  readonly #byId: RecordIndex<Account>
  readonly #byName: RecordIndex<Account>
  /** Usernames being registered right now, so two concurrent requests cannot both take one. */
  readonly #reserved = new Set<string>()
  #sorted: Account[] | null = null

  constructor(world: World) {
    this.#world = world
    this.collection = new Collection({ schema: accountRecord })
    this.#byId = new RecordIndex<Account>(this.collection, (account) => account.id)
    this.#byName = new RecordIndex<Account>(this.collection, (account) => account.username.toLowerCase())
    // Keep the creation-ordered list in step with writes instead of re-sorting
    // every account on the next list request after each write.
    this.collection.hooks.on('create', (event) => this.#place(undefined, event.data.record))
    this.collection.hooks.on('update', (event) => this.#place(event.data.prevRecord, event.data.nextRecord))
    this.collection.hooks.on('delete', (event) => this.#place(event.data.deletedRecord, undefined))
  }

  get(id: string): Account | undefined {
    return this.#byId.get(id)
  }

  findByUsername(username: string): Account | undefined {
    return this.#byName.get(username.toLowerCase())
  }

  /** Every account ordered by creation (D12). Do not mutate. */
  sorted(): readonly Account[] {
    // The length check also catches writes whose hook did not fire (see RecordIndex).
    if (!this.#sorted || this.#sorted.length !== this.collection.count()) this.#sorted = [...this.collection.all()].sort(byCreation)
    return this.#sorted
  }

  /**
   * Creates a new `pending` account (D5), whichever area asks.
   * A taken username is 409 `conflict`.
   */
  async register(input: { username: string; email: string; password: string }): Promise<Account> {
    const key = input.username.toLowerCase()
    if (this.#byName.has(key) || this.#reserved.has(key)) throw usernameTaken(input.username)
    this.#reserved.add(key)
    try {
      const now = this.#world.now()
      const id = this.#world.nextId()
      const passwordHash = await this.#world.passwords.hash(input.password, this.#world.random.bytes(16))
      return await this.collection.create({
        id,
        username: input.username,
        email: input.email,
        status: 'pending',
        created_at: now,
        updated_at: now,
        last_login: null,
        password_hash: passwordHash,
      })
    } finally {
      this.#reserved.delete(key)
    }
  }

  /** Applies `changes` and stamps `updated_at` (D13). Unknown id: `undefined`. */
  async update(id: string, changes: { email?: string; status?: UserStatus }): Promise<Account | undefined> {
    const current = this.#byId.get(id)
    if (!current) return undefined
    const now = this.#world.now()
    const next = await this.collection.update(current as never, {
      data(draft) {
        if (changes.email !== undefined) draft.email = changes.email
        if (changes.status !== undefined) draft.status = changes.status
        draft.updated_at = now
      },
    })
    if (next) this.#refresh(next)
    return next
  }

  /** Records a successful login (D6): sets `last_login`. */
  async touchLogin(id: string): Promise<Account | undefined> {
    const current = this.#byId.get(id)
    if (!current) return undefined
    const now = this.#world.now()
    const next = await this.collection.update(current as never, {
      data(draft) {
        draft.last_login = now
      },
    })
    if (next) this.#refresh(next)
    return next
  }

  /** Deletes an account; `false` when the id is unknown. */
  remove(id: string): boolean {
    const current = this.#byId.get(id)
    if (!current) return false
    this.collection.delete(current as never)
    return true
  }

  /** `true` when `password` is this account's password. */
  checkPassword(account: Account, password: string): Promise<boolean> {
    return this.#world.passwords.verify(password, account.password_hash)
  }

  /** Replaces every account with already-validated, already-hashed records. */
  async replaceAll(accounts: readonly Account[]): Promise<void> {
    this.collection.clear()
    for (const account of accounts) await this.collection.create(account)
  }

  #refresh(account: Account): void {
    this.#byId.refresh(account)
    this.#byName.refresh(account)
    this.#place(account, account)
  }

  /** Replaces `prev` by `next` in the ordered list (either may be absent); drops the list when unsure. */
  #place(prev: Account | undefined, next: Account | undefined): void {
    const list = this.#sorted
    if (!list) return
    if (prev) {
      const at = lowerBound(list, prev)
      if (list[at]?.id !== prev.id) return void (this.#sorted = null)
      if (next && next.id === prev.id && next.created_at === prev.created_at) return void (list[at] = next)
      list.splice(at, 1)
    }
    if (next) list.splice(lowerBound(list, next), 0, next)
  }
}

/** First index whose account does not sort before `account` (binary search, D12 order). */
function lowerBound(list: readonly Account[], account: Account): number {
  let low = 0
  let high = list.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (byCreation(list[mid]!, account) < 0) low = mid + 1
    else high = mid
  }
  return low
}

function usernameTaken(username: string): ApiError {
  return new ApiError(409, 'conflict', `The username "${username}" is already taken.`, { extra: { field: 'username' } })
}
