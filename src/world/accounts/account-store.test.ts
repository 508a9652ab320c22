import { describe, expect, it } from 'vitest'
import { toSimClock } from '../../kernel/time/sim-clock.js'
import { World } from '../world.js'
import type { Account } from './account-schema.js'
import { accountRecord, AccountStore } from './account-store.js'
import { byCreation } from './creation-order.js'
import { accountsSection } from './accounts-section.js'

const world = () => new World({ seed: 1, clock: toSimClock('2026-01-01T00:00:00Z'), limits: { bodyBytes: 1024, ingestPoints: 10 } })
const register = (store: AccountStore, name: string) => store.register({ username: name, email: `${name}@example.com`, password: 'long-enough' })
const names = (store: AccountStore) => store.sorted().map((user) => user.username)
const stored = (id: string, username: string, created_at: string): Account =>
  accountRecord({ id, username, email: `${username}@example.com`, status: 'active', created_at, updated_at: created_at, last_login: null }, 'pbkdf2-hmac-sha256$1000$a$b$c')

describe('AccountStore', () => {
  it('keeps the creation order through creates, updates and deletes (D12)', async () => {
    const store = new AccountStore(world())
    const created = []
    for (const name of ['c.one', 'a.two', 'b.three']) created.push(await register(store, name))
    expect(names(store)).toEqual(['c.one', 'a.two', 'b.three'])
    await store.update(created[1]!.id, { status: 'active' })
    expect(store.sorted().map((user) => [user.username, user.status])).toEqual([
      ['c.one', 'pending'],
      ['a.two', 'active'],
      ['b.three', 'pending'],
    ])
    expect(store.remove(created[0]!.id)).toBe(true)
    expect(store.remove(created[0]!.id)).toBe(false)
    expect(names(store)).toEqual(['a.two', 'b.three'])
    await store.touchLogin(created[2]!.id)
    expect(store.sorted()[1]!.last_login).toBe('2026-01-01T00:00:00.000Z')
    expect(store.size).toBe(2)
  })

  it('orders by created_at, then id, whatever order the records come in', () => {
    const store = new AccountStore(world())
    store.replaceAll([stored('b', 'late', '2025-03-01T00:00:00.000Z'), stored('z', 'tie.z', '2025-01-01T00:00:00.000Z'), stored('a', 'tie.a', '2025-01-01T00:00:00.000Z')])
    expect(names(store)).toEqual(['tie.a', 'tie.z', 'late'])
    store.replaceAll([])
    expect(store.sorted()).toEqual([])
    expect(store.get('a')).toBeUndefined()
  })

  it('given the same list again, is back to it exactly, whatever was written in between', async () => {
    const store = new AccountStore(world())
    const list = [stored('a', 'ada', '2025-01-01T00:00:00.000Z'), stored('b', 'bob', '2025-02-01T00:00:00.000Z'), stored('c', 'cy', '2025-03-01T00:00:00.000Z')]
    for (let round = 0; round < 2; round++) {
      store.replaceAll(list)
      const added = await register(store, 'new.one')
      await store.update('a', { status: 'inactive' })
      store.remove('b')
      expect(names(store)).toEqual(['ada', 'cy', 'new.one'])
      expect(store.sorted('inactive').map((user) => user.id)).toEqual(['a'])
      expect(store.findByUsername('BOB')).toBeUndefined()
      store.replaceAll(list)
      expect(store.sorted()).toEqual(list)
      expect(store.sorted('active').map((user) => user.id)).toEqual(['a', 'b', 'c'])
      expect(store.get(added.id)).toBeUndefined()
      expect(store.findByUsername('new.one')).toBeUndefined()
      expect(store.findByUsername('BOB')).toBe(list[1])
      expect(store.get('a')!.status).toBe('active')
    }
  })

  it('places a registration among older accounts when the clock was moved back (D12)', async () => {
    const w = world()
    const store = new AccountStore(w)
    store.replaceAll([stored('x1', 'old', '2025-01-01T00:00:00.000Z'), stored('x2', 'future', '2027-01-01T00:00:00.000Z')])
    await register(store, 'now')
    expect(names(store)).toEqual(['old', 'now', 'future'])
    w.clock.advance('800d')
    await register(store, 'later')
    expect(names(store)).toEqual(['old', 'now', 'future', 'later'])
    expect(store.remove('x2')).toBe(true)
    expect(names(store)).toEqual(['old', 'now', 'later'])
  })

  it('keeps usernames unique, case-insensitively, and finds them in any case', async () => {
    const store = new AccountStore(world())
    const ada = await register(store, 'Ada.L')
    await expect(register(store, 'ada.l')).rejects.toMatchObject({ status: 409, code: 'conflict' })
    expect(store.findByUsername('ADA.L')?.id).toBe(ada.id)
    expect(store.get(ada.id)).toBe(ada)
    const updated = await store.update(ada.id, { email: 'new@example.com' })
    expect(store.findByUsername('ada.l')).toBe(updated)
    expect(store.get(ada.id)).toBe(updated)
    store.remove(ada.id)
    expect(store.findByUsername('ada.l')).toBeUndefined()
    expect((await register(store, 'ADA.l')).username).toBe('ADA.l')
  })

  it('replaces records on write and never changes one handed out', async () => {
    const store = new AccountStore(world())
    const before = await register(store, 'frozen')
    const after = await store.update(before.id, { status: 'inactive' })
    expect(before).toMatchObject({ status: 'pending' })
    expect(after).toMatchObject({ status: 'inactive', created_at: before.created_at })
    expect(after).not.toBe(before)
    expect(Object.isFrozen(after)).toBe(true)
    expect(await store.update('missing', { status: 'active' })).toBeUndefined()
    expect(await store.touchLogin('missing')).toBeUndefined()
  })

  it('refuses a second registration of the same username while the first is still hashing', async () => {
    const store = new AccountStore(world())
    const results = await Promise.allSettled([register(store, 'racer'), register(store, 'RACER')])
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect(store.size).toBe(1)
  })

  it('checks passwords against the stored hash only', async () => {
    const store = new AccountStore(world())
    const user = await register(store, 'checker')
    expect(user.password_hash).not.toContain('long-enough')
    expect(await store.checkPassword(user, 'long-enough')).toBe(true)
    expect(await store.checkPassword(user, 'wrong-password')).toBe(false)
  })

  it('keeps the whole list and the per-status lists in D12 order and in step with the indexes, whatever the writes', async () => {
    const w = world()
    const store = new AccountStore(w)
    store.replaceAll([stored('x1', 'Old.One', '2025-01-01T00:00:00.000Z'), stored('x2', 'Late.One', '2027-06-01T00:00:00.000Z')])
    let state = 7
    const pick = (n: number) => (state = (state * 1103515245 + 12345) % 2 ** 31) % n
    for (let step = 0; step < 300; step++) {
      const all = store.sorted()
      const someone = all[pick(Math.max(1, all.length))]
      const action = pick(6)
      if (action <= 1 || !someone) await register(store, `User.${step}`)
      else if (action === 2) await store.update(someone.id, { status: (['active', 'inactive'] as const)[pick(2)]! })
      else if (action === 3) await store.update(someone.id, { email: `e${step}@example.com` })
      else if (action === 4) store.remove(someone.id)
      else w.clock.advance(pick(2) === 0 ? '-3d' : '2h')
      const list = store.sorted()
      expect([...list].sort(byCreation)).toEqual(list)
      for (const status of ['active', 'inactive', 'pending'] as const) expect(store.sorted(status)).toEqual(list.filter((user) => user.status === status))
      expect(store.size).toBe(list.length)
      for (const user of list) {
        expect(store.get(user.id)).toBe(user)
        expect(store.findByUsername(user.username.toUpperCase())).toBe(user)
      }
    }
  })
})

describe('accounts section', () => {
  const scenario = {
    password: 'Passw0rd!',
    generate: { active: 30, inactive: 5, pending: 5 },
    users: [{ username: 'Listed', email: 'listed@example.com', status: 'active' as const }],
  }

  it('round-trips through export and import, with and without secrets', async () => {
    const w = world()
    const store = new AccountStore(w)
    const section = accountsSection(w, store)
    await section.load(scenario)
    expect(store.size).toBe(41)
    const withSecrets = structuredClone(section.export({ secrets: true }))
    const plain = section.export({ secrets: false })
    expect(plain.users.every((user) => !('password_hash' in user))).toBe(true)
    const listed = store.findByUsername('listed')!
    await store.update(listed.id, { status: 'inactive' })
    await register(store, 'extra')
    await section.import(withSecrets)
    expect(section.export({ secrets: true })).toEqual(withSecrets)
    expect(await store.checkPassword(store.findByUsername('listed')!, 'Passw0rd!')).toBe(true)
    // Without hashes, users keep the password they have (same id).
    await section.import(plain)
    expect(section.export({ secrets: true })).toEqual(withSecrets)
  })

  it('takes back its own exported records as they are (reset)', async () => {
    const w = world()
    const store = new AccountStore(w)
    const section = accountsSection(w, store)
    await section.load(scenario)
    const initial = section.export({ secrets: true })
    const first = store.sorted()[0]!
    await store.update(first.id, { email: 'changed@example.com' })
    store.remove(store.sorted()[1]!.id)
    await section.import(initial)
    expect(store.sorted()[0]).toBe(first)
    expect(store.size).toBe(41)
  })

  it('seeds the same users, ids and hashes for the same seed', async () => {
    const seeded = async () => {
      const w = world()
      const store = new AccountStore(w)
      await accountsSection(w, store).load(scenario)
      return store.sorted()
    }
    expect(await seeded()).toEqual(await seeded())
  })
})
