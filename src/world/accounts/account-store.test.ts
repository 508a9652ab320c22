import { describe, expect, it } from 'vitest'
import { toSimClock } from '../../kernel/sim-clock.js'
import { World } from '../world.js'
import { AccountStore } from './account-store.js'

const world = () => new World({ seed: 1, clock: toSimClock('2026-01-01T00:00:00Z'), limits: { bodyBytes: 1024, ingestPoints: 10 } })
const register = (store: AccountStore, name: string) => store.register({ username: name, email: `${name}@example.com`, password: 'long-enough' })

describe('AccountStore', () => {
  it('keeps the creation order through creates, updates, deletes and direct collection writes (D12)', async () => {
    const store = new AccountStore(world())
    const created = []
    for (const name of ['c.one', 'a.two', 'b.three']) created.push(await register(store, name))
    expect(store.sorted().map((user) => user.username)).toEqual(['c.one', 'a.two', 'b.three'])
    await store.update(created[1]!.id, { status: 'active' })
    expect(store.sorted().map((user) => [user.username, user.status])).toEqual([['c.one', 'pending'], ['a.two', 'active'], ['b.three', 'pending']])
    store.remove(created[0]!.id)
    await store.collection.create({ ...created[0]!, id: '00000000-0000-7000-8000-000000000000', username: 'older', created_at: '2025-01-01T00:00:00.000Z' })
    expect(store.sorted().map((user) => user.username)).toEqual(['older', 'a.two', 'b.three'])
    await store.touchLogin(created[2]!.id)
    expect(store.sorted()[2]!.last_login).toBe('2026-01-01T00:00:00.000Z')
    store.collection.clear()
    expect(store.sorted()).toEqual([])
    expect(store.get(created[1]!.id)).toBeUndefined()
  })

  it('refuses a second registration of the same username while the first is still hashing', async () => {
    const store = new AccountStore(world())
    const results = await Promise.allSettled([register(store, 'racer'), register(store, 'RACER')])
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect(store.collection.count()).toBe(1)
  })

  it('checks passwords against the stored hash only', async () => {
    const store = new AccountStore(world())
    const user = await register(store, 'checker')
    expect(user.password_hash).not.toContain('long-enough')
    expect(await store.checkPassword(user, 'long-enough')).toBe(true)
    expect(await store.checkPassword(user, 'wrong-password')).toBe(false)
  })
})
