import { Query } from '@msw/data'
import { describe, expect, it } from 'vitest'
import { toSimClock } from '../../kernel/time/sim-clock.js'
import { World } from '../world.js'
import type { Account } from './account-schema.js'
import { AccountStore } from './account-store.js'
import { accountsSection } from './accounts-section.js'

const users = [
  { username: 'zed', email: 'zed@example.com', status: 'active', created_at: '2025-03-01T00:00:00Z' },
  { username: 'amy', email: 'amy@example.com', status: 'pending', created_at: '2025-01-01T00:00:00Z' },
  { username: 'bob', email: 'bob@example.com', status: 'active', created_at: '2025-02-01T00:00:00Z' },
] as const

/** A store seeded like a scenario with three listed users, and its `sim.db.users` view. */
async function seeded() {
  const world = new World({ seed: 1, clock: toSimClock('2026-01-01T00:00:00Z'), limits: { bodyBytes: 1024, ingestPoints: 10 } })
  const store = new AccountStore(world)
  const section = accountsSection(world, store)
  await section.load({ password: 'Passw0rd!', users: [...users] })
  return { store, section, view: store.view }
}

describe('UsersView (sim.db.users)', () => {
  it('answers the query calls of an @msw/data collection, oldest first (D12)', async () => {
    const { view } = await seeded()
    expect(view.count()).toBe(3)
    expect(view.all().map((user) => user.username)).toEqual(['amy', 'bob', 'zed'])
    expect(view.findMany((q) => q.where({ status: 'active' })).map((user) => user.username)).toEqual(['bob', 'zed'])
    expect(view.findMany(new Query<Account>().where({ status: 'pending' })).map((user) => user.username)).toEqual(['amy'])
    expect(view.findMany(undefined, { skip: 1, take: 1 }).map((user) => user.username)).toEqual(['bob'])
    expect(view.findMany((q) => q.where({ username: (name) => name.startsWith('z') }).or({ username: 'amy' })).length).toBe(2)
    expect(view.findFirst((q) => q.where({ username: 'bob' }))?.email).toBe('bob@example.com')
    expect(view.findFirst((q) => q.where({ username: 'nobody' }))).toBeUndefined()
    expect(view.findFirst()?.username).toBe('amy')
  })

  it('follows the store through writes and resets; its records cannot be changed in place', async () => {
    const { store, section, view } = await seeded()
    const initial = section.export({ secrets: true })
    await store.register({ username: 'new.one', email: 'n@example.com', password: 'Passw0rd!' })
    expect(view.all().map((user) => user.username)).toEqual(['amy', 'bob', 'zed', 'new.one'])
    const amy = view.findFirst((q) => q.where({ username: 'amy' }))!
    expect(() => Object.assign(amy, { status: 'active' })).toThrow(TypeError)
    expect(view.all()).not.toBe(view.all())
    await section.import(initial)
    expect(view.count()).toBe(3)
  })
})
