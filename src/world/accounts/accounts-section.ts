import type { WorldSection } from '../section.js'
import type { World } from '../world.js'
import {
  type Account,
  type AccountState,
  type AccountsScenario,
  accountsScenario,
  accountsState,
  DEFAULT_PASSWORD,
  type UserStatus,
} from './account-schema.js'
import type { AccountStore } from './account-store.js'

const YEAR_MS = 365 * 24 * 3600 * 1000

/**
 * The `accounts` section of scenarios and state: the users shared by Areas A,
 * B and D (D5). Generated users are realistic (faker, seeded) and all share the
 * scenario's password, `Passw0rd!` unless the scenario sets another.
 */
export function accountsSection(world: World, store: AccountStore): WorldSection<AccountsScenario, { users: AccountState[] }> {
  return {
    key: 'accounts',
    scenarioSchema: accountsScenario,
    stateSchema: accountsState,

    async load(scenario) {
      const plan: Array<Omit<Account, 'password_hash'> & { password: string }> = []
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
          updated_at: new Date(createdAt).toISOString(),
          last_login: user.last_login ? new Date(user.last_login).toISOString() : null,
          password: user.password ?? defaultPassword,
        })
      }
      const counts = scenario?.generate
      for (const status of ['active', 'inactive', 'pending'] as const) {
        for (let i = 0; i < (counts?.[status] ?? 0); i++) plan.push({ ...generateUser(world, status, taken), password: defaultPassword })
      }
      const hashed = await Promise.all(
        plan.map(async ({ password, ...account }) => ({ ...account, password_hash: await world.passwords.hash(password, world.random.bytes(16)) })),
      )
      await store.replaceAll(hashed)
    },

    export({ secrets }) {
      return {
        users: store.sorted().map(({ password_hash, ...account }) => (secrets ? { ...account, password_hash } : account)),
      }
    },

    async import(state) {
      // Users without a password keep the one they have now (same id), else the default one.
      const accounts = await Promise.all(
        state.users.map(async (user): Promise<Account> => {
          const { password, password_hash, ...rest } = user
          const hash =
            password_hash ??
            (password === undefined ? store.get(user.id)?.password_hash : undefined) ??
            (await world.passwords.hash(password ?? DEFAULT_PASSWORD, world.random.bytes(16)))
          return {
            ...rest,
            created_at: new Date(rest.created_at).toISOString(),
            updated_at: new Date(rest.updated_at ?? rest.created_at).toISOString(),
            last_login: rest.last_login ? new Date(rest.last_login).toISOString() : null,
            password_hash: hash,
          }
        }),
      )
      await store.replaceAll(accounts)
    },
  }
}

function generateUser(world: World, status: UserStatus, taken: Set<string>): Omit<Account, 'password_hash'> {
  const { faker } = world
  const now = world.clock.now()
  const firstName = faker.person.firstName()
  const lastName = faker.person.lastName()
  let name = faker.internet.username({ firstName, lastName }).replace(/[^A-Za-z0-9._-]/g, '').slice(0, 56)
  if (name.length < 3) name = `user_${name}`
  while (taken.has(name.toLowerCase())) name = `${name.slice(0, 56)}${faker.number.int({ min: 1, max: 999 })}`
  taken.add(name.toLowerCase())
  const createdAt = faker.date.between({ from: new Date(now.getTime() - 2 * YEAR_MS), to: now })
  const lastLogin = status === 'pending' ? null : faker.date.between({ from: createdAt, to: now }).toISOString()
  return {
    id: world.nextId(),
    username: name,
    email: faker.internet.email({ firstName, lastName }).toLowerCase(),
    status,
    created_at: createdAt.toISOString(),
    // Pending users were never touched after sign-up; the others were at some point.
    updated_at: status === 'pending' ? createdAt.toISOString() : faker.date.between({ from: createdAt, to: now }).toISOString(),
    last_login: lastLogin,
  }
}
