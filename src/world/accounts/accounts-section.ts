import { NO_PASSWORD_HASH } from '../../kernel/crypto/password.js'
import { sameJson } from '../../kernel/data/same-json.js'
import type { StoreOf } from '../section.js'
import type { World } from '../world.js'
import { type Account, type AccountState, accountsScenario, accountsState, DEFAULT_PASSWORD } from './account-schema.js'
import { type AccountStore, accountRecord } from './account-store.js'
import { generateUser } from './generated-user.js'

/** Random bytes of each user's own password salt. */
const SALT_BYTES = 16

/** The shared accounts' place in scenarios and state: `accounts`. */
export const accountsSectionSchemas = {
  key: 'accounts',
  scenarioSchema: accountsScenario.optional().describe('Users shared by Areas A, B and D (D5).'),
  stateSchema: accountsState.default({ users: [] }),
} as const

/**
 * The `accounts` section of scenarios and state: the users shared by Areas A,
 * B and D (D5). Generated users are realistic (faker, seeded) and all share the
 * scenario's password, `Passw0rd!` unless the scenario sets another.
 */
export function accountsSection(world: World, store: AccountStore): StoreOf<typeof accountsSectionSchemas> {
  return {
    async load(scenario) {
      const plan: Array<Omit<Account, 'password_hash'>> = []
      /** Each user's password; `null`: none. */
      const passwords: Array<string | null> = []
      const defaultPassword = scenario?.password ?? DEFAULT_PASSWORD
      const taken = new Set<string>()
      for (const user of scenario?.users ?? []) {
        const createdAt = user.created_at ?? world.now()
        taken.add(user.username.toLowerCase())
        plan.push({
          id: user.id ?? world.nextId(),
          username: user.username,
          email: user.email,
          status: user.status,
          created_at: new Date(createdAt).toISOString(),
          updated_at: new Date(user.updated_at ?? createdAt).toISOString(),
          last_login: user.last_login ? new Date(user.last_login).toISOString() : null,
        })
        passwords.push(user.password === undefined ? defaultPassword : user.password)
      }
      const counts = scenario?.generate
      for (const status of ['active', 'inactive', 'pending'] as const) {
        for (let i = 0; i < (counts?.[status] ?? 0); i++) {
          plan.push(generateUser(world, status, taken))
          passwords.push(defaultPassword)
        }
      }
      // Salts are drawn in plan order, after every user, as they always were, 16
      // bytes each but into one buffer (100,000 small arrays cost ~50 ms and their
      // GC); each distinct password's key is derived once, then a user costs one HMAC.
      // A user without a password leaves its salt unused: whether one has a password
      // changes no other user's hash, nor any value drawn after.
      const salts = world.random.fill(new Uint8Array(SALT_BYTES * plan.length))
      const signers = new Map<string, (salt: Uint8Array) => string>()
      for (const password of passwords) if (password !== null && !signers.has(password)) signers.set(password, await world.passwords.signer(password))
      const salt = new Uint8Array(SALT_BYTES)
      store.replaceAll(
        plan.map((account, index) => {
          const password = passwords[index]!
          if (password === null) return accountRecord(account, NO_PASSWORD_HASH)
          for (let i = 0, at = index * SALT_BYTES; i < SALT_BYTES; i++) salt[i] = salts[at + i]!
          return accountRecord(account, signers.get(password)!(salt))
        }),
      )
    },

    export({ secrets }) {
      // With secrets (snapshots, the state `reset()` returns to) the frozen records
      // themselves: nothing is copied, and `import` takes them back as they are.
      if (secrets) return { users: [...store.sorted()] }
      return { users: store.sorted().map(withoutHash) }
    },

    // The records themselves, compared without a copy: the same frozen record is equal at once.
    holds: (state) => sameJson(store.sorted(), state.users),

    async import(state) {
      // The loaded state again (a reset): its own frozen records, the very list, so the store shares what it built for it.
      if (state.users.every(Object.isFrozen)) return store.replaceAll(state.users as Account[])
      // Users without `password` keep the one they have now (same id), else the
      // default one; `password: null` is no password at all.
      const keep = (user: AccountState) => (user.password === undefined ? store.get(user.id)?.password_hash : undefined)
      const signers = new Map<string, (salt: Uint8Array) => string>()
      for (const user of state.users) {
        if (Object.isFrozen(user) || user.password_hash !== undefined || user.password === null || keep(user) !== undefined) continue
        const password = user.password ?? DEFAULT_PASSWORD
        if (!signers.has(password)) signers.set(password, await world.passwords.signer(password))
      }
      // A user without a password draws its salt too, as on load: it shifts nothing drawn after.
      const newHash = (password: string | null | undefined): string => {
        const salt = world.random.bytes(SALT_BYTES)
        return password === null ? NO_PASSWORD_HASH : signers.get(password ?? DEFAULT_PASSWORD)!(salt)
      }
      store.replaceAll(
        state.users.map((user): Account => {
          if (Object.isFrozen(user)) return user as Account
          const { password, password_hash, ...rest } = user
          const hash = password_hash ?? keep(user) ?? newHash(password)
          return accountRecord(
            {
              ...rest,
              created_at: canonicalInstant(rest.created_at),
              updated_at: canonicalInstant(rest.updated_at ?? rest.created_at),
              last_login: rest.last_login ? canonicalInstant(rest.last_login) : null,
            },
            hash,
          )
        }),
      )
    },
  }
}

/**
 * An account as the state API shows it: everything but the hash; `password:
 * null` for a user without a password, so `PUT /__mock/state` of the document,
 * in any world, keeps them without one (an absent password is the default's).
 */
function withoutHash(account: Account): Omit<Account, 'password_hash'> & { password?: null } {
  const shown = {
    id: account.id,
    username: account.username,
    email: account.email,
    status: account.status,
    created_at: account.created_at,
    updated_at: account.updated_at,
    last_login: account.last_login,
  }
  return account.password_hash === NO_PASSWORD_HASH ? { ...shown, password: null } : shown
}

const CANONICAL_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

/** `toISOString()` form; a string already in it is kept (no Date round trip per user). */
function canonicalInstant(instant: string): string {
  return CANONICAL_INSTANT.test(instant) ? instant : new Date(instant).toISOString()
}
