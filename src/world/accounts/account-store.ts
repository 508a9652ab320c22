import { ApiError } from '../../kernel/errors/api-error.js'
import { OverlayMap } from '../../kernel/data/overlay-map.js'
import type { World } from '../world.js'
import type { Account, UserStatus } from './account-schema.js'
import { UsersView } from './users-view.js'
import { byCreation, sortByCreation } from './creation-order.js'

/**
 * One stored account, frozen. Every record is built here, by one object literal
 * with its fields in one order, so all of them share one hidden class (compact,
 * fast property reads); a write replaces the record, never changes it, which
 * lets caches key on records and `reset()` keep them (bench/README.md, "Scale").
 *
 * @example
 * const ada = accountRecord({ id, username: 'ada', email, status: 'pending', created_at: now, updated_at: now, last_login: null }, hash)
 */
export function accountRecord(fields: Omit<Account, 'password_hash'>, passwordHash: string): Account {
  return Object.freeze({
    id: fields.id,
    username: fields.username,
    email: fields.email,
    status: fields.status,
    created_at: fields.created_at,
    updated_at: fields.updated_at,
    last_login: fields.last_login,
    password_hash: passwordHash,
  })
}

/**
 * The shared accounts behind Areas A, B and D (D5): unique usernames
 * (case-insensitive) across the world, passwords kept only as salted hashes.
 * A compact store of its own rather than an @msw/data collection (measured
 * reason in bench/README.md, "Scale"): plain frozen records, one map by id,
 * one by lower-cased username, and the creation-ordered list (D12), whole and
 * per status, kept in step with every write, so a list request never sorts,
 * filters or counts.
 *
 * @example
 * const accounts = new AccountStore(world)
 * await accounts.register({ username: 'ada', email: 'ada@example.com', password: 'Passw0rd!' })
 * accounts.sorted()[0].username // 'ada'
 */
export class AccountStore {
  /** The read-only query view published as `sim.db.users`. */
  readonly view: UsersView
  readonly #world: World
  #byId = new OverlayMap<string, Account>(new Map())
  #byName = new OverlayMap<string, Account>(new Map())
  /** Every account in D12 order. */
  #sorted: Account[] = []
  /** The same, one list per status (`?status=` filters of Area A). */
  #byStatus: Record<UserStatus, Account[]> = { active: [], inactive: [], pending: [] }
  /**
   * What the last `replaceAll` built, never written to: the maps above are
   * written on top of its maps, and its lists are copied before the first write.
   * A `replaceAll` with the very same list again (every `reset()`) starts from it
   * again at no cost, however many accounts there are.
   */
  #base: (Indexes & { source: readonly Account[] }) | undefined
  /** `#sorted` and `#byStatus` are `#base`'s: copy them before writing. */
  #sharedLists = false
  /** Usernames being registered right now, so two concurrent requests cannot both take one. */
  readonly #reserved = new Set<string>()
  /** Moves on every write, so a reader can keep what it derived from the accounts until then. */
  #version = 0

  constructor(world: World) {
    this.#world = world
    this.view = new UsersView(this)
  }

  /**
   * A number that changes whenever any account is added, changed or removed
   * (scenario loads, imports and resets included): what was derived from the
   * accounts at one version (a list page's JSON, say) is still right at it.
   */
  get version(): number {
    return this.#version
  }

  /** Number of accounts. */
  get size(): number {
    return this.#sorted.length
  }

  get(id: string): Account | undefined {
    return this.#byId.get(id)
  }

  findByUsername(username: string): Account | undefined {
    return this.#byName.get(username.toLowerCase())
  }

  /** Every account ordered by creation (D12), or only those with `status`. Do not mutate. */
  sorted(status?: UserStatus): readonly Account[] {
    return status === undefined ? this.#sorted : this.#byStatus[status]
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
      const account = accountRecord({ id, username: input.username, email: input.email, status: 'pending', created_at: now, updated_at: now, last_login: null }, passwordHash)
      this.#add(account)
      return account
    } finally {
      this.#reserved.delete(key)
    }
  }

  /** Applies `changes` and stamps `updated_at` (D13). Unknown id: `undefined`. */
  async update(id: string, changes: { email?: string; status?: UserStatus }): Promise<Account | undefined> {
    const current = this.#byId.get(id)
    if (!current) return undefined
    return this.#replace(current, {
      ...current,
      email: changes.email ?? current.email,
      status: changes.status ?? current.status,
      updated_at: this.#world.now(),
    })
  }

  /** Records a successful login (D6): sets `last_login`. */
  async touchLogin(id: string): Promise<Account | undefined> {
    const current = this.#byId.get(id)
    if (!current) return undefined
    return this.#replace(current, { ...current, last_login: this.#world.now() })
  }

  /** Deletes an account; `false` when the id is unknown. */
  remove(id: string): boolean {
    const current = this.#byId.get(id)
    if (!current) return false
    this.#version++
    this.#ownLists()
    this.#byId.delete(id)
    this.#byName.delete(current.username.toLowerCase())
    this.#sorted.splice(indexOf(this.#sorted, current), 1)
    const sameStatus = this.#byStatus[current.status]
    sameStatus.splice(indexOf(sameStatus, current), 1)
    return true
  }

  /** `true` when `password` is this account's password. */
  checkPassword(account: Account, password: string): Promise<boolean> {
    return this.#world.passwords.verify(password, account.password_hash)
  }

  /**
   * Replaces every account with already-validated, already-hashed, unique
   * records (scenario load, state import, `reset()`). Records made by
   * `accountRecord` (frozen) are kept as they are, so a reset shares them with
   * the state it returns to instead of copying 100,000 users.
   */
  replaceAll(accounts: readonly Account[]): void {
    this.#version++
    if (this.#base?.source !== accounts) this.#base = { ...buildIndexes(accounts), source: accounts }
    const base = this.#base
    this.#byId = new OverlayMap(base.byId)
    this.#byName = new OverlayMap(base.byName)
    this.#sorted = base.sorted
    this.#byStatus = base.byStatus
    this.#sharedLists = true
  }

  /** Before a write to the lists: copies `#base`'s (pointers only), so it stays as built. */
  #ownLists(): void {
    if (!this.#sharedLists) return
    this.#sharedLists = false
    this.#sorted = this.#sorted.slice()
    const { active, inactive, pending } = this.#byStatus
    this.#byStatus = { active: active.slice(), inactive: inactive.slice(), pending: pending.slice() }
  }

  #add(account: Account): void {
    this.#version++
    this.#ownLists()
    this.#byId.set(account.id, account)
    this.#byName.set(account.username.toLowerCase(), account)
    insert(this.#sorted, account)
    insert(this.#byStatus[account.status], account)
  }

  /** Puts `next` where `prev` was (same id); `created_at` never changes on update. */
  #replace(prev: Account, next: Account): Account {
    const account = accountRecord(next, next.password_hash)
    this.#version++
    this.#ownLists()
    this.#byId.set(account.id, account)
    const prevName = prev.username.toLowerCase()
    const nextName = account.username.toLowerCase()
    if (prevName !== nextName) this.#byName.delete(prevName)
    this.#byName.set(nextName, account)
    this.#sorted[indexOf(this.#sorted, prev)] = account
    const before = this.#byStatus[prev.status]
    if (prev.status === account.status) before[indexOf(before, prev)] = account
    else {
      before.splice(indexOf(before, prev), 1)
      insert(this.#byStatus[account.status], account)
    }
    return account
  }
}

/** A store's lookups over one list of accounts. */
interface Indexes {
  byId: Map<string, Account>
  byName: Map<string, Account>
  sorted: Account[]
  byStatus: Record<UserStatus, Account[]>
}

function buildIndexes(accounts: readonly Account[]): Indexes {
  const sorted = accounts.map((account) => (Object.isFrozen(account) ? account : accountRecord(account, account.password_hash)))
  if (!isSorted(sorted)) sortByCreation(sorted)
  const byId = new Map<string, Account>()
  const byName = new Map<string, Account>()
  const byStatus: Record<UserStatus, Account[]> = { active: [], inactive: [], pending: [] }
  for (const account of sorted) {
    byId.set(account.id, account)
    byName.set(account.username.toLowerCase(), account)
    byStatus[account.status].push(account)
  }
  return { byId, byName, sorted, byStatus }
}

/** Adds `account` to a D12-ordered list: new accounts are almost always the newest, so appended without a search. */
function insert(list: Account[], account: Account): void {
  const last = list[list.length - 1]
  if (last === undefined || byCreation(last, account) < 0) list.push(account)
  else list.splice(lowerBound(list, account), 0, account)
}

/** Where `account` is in a D12-ordered list that holds it. */
function indexOf(list: readonly Account[], account: Account): number {
  const at = lowerBound(list, account)
  if (list[at] !== account) throw new Error(`Account "${account.id}" is not where D12 order puts it.`)
  return at
}

function isSorted(list: readonly Account[]): boolean {
  for (let i = 1; i < list.length; i++) if (byCreation(list[i - 1]!, list[i]!) > 0) return false
  return true
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
