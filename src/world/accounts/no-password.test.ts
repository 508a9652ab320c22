import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../simulator/create-simulator.js'
import type { ScenarioInput } from '../../simulator/state/scenario-schema.js'

const CLOCK = '2026-01-01T00:00:00Z'
const WITH_PASSWORD = { username: 'has.password', email: 'has@example.com', status: 'active' as const, password: 'team-password' }
const WITHOUT = { id: 'no-pass', username: 'no.password', email: 'none@example.com', status: 'active' as const, password: null }

async function send(sim: Simulator, method: string, path: string, body?: unknown) {
  const init: RequestInit = { method, headers: body === undefined ? {} : { 'content-type': 'application/json' } }
  if (body !== undefined) init.body = JSON.stringify(body)
  const response = await sim.fetch(new Request(`http://sim.test${path}`, init))!
  return { status: response.status, text: await response.text() }
}

const login = (sim: Simulator, username: string, password: string) => send(sim, 'POST', '/general/auth/login', { username, password })

/** The answer to a wrong password of a user who has one, which a user without a password gets for any password. */
async function refusal(sim: Simulator, user = WITH_PASSWORD) {
  const wrong = await login(sim, user.username, 'not-the-password')
  expect(wrong.status).toBe(401)
  return wrong
}

async function expectNoPassword(sim: Simulator, username = WITHOUT.username, other = WITH_PASSWORD) {
  const refused = await refusal(sim, other)
  for (const guess of ['Passw0rd!', 'team-password', 'none', 'null']) expect(await login(sim, username, guess)).toEqual(refused)
}

const scenario = (users: ScenarioInput['accounts']): ScenarioInput => ({ accounts: users, core: { products: [] } })

describe('a scenario user without a password (password: null)', () => {
  it('cannot log in: any password is refused as a wrong one is, status and body', async () => {
    const sim = createSimulator({ seed: 3, clock: CLOCK, scenario: scenario({ password: 'team-password', users: [WITH_PASSWORD, WITHOUT] }) })
    await expectNoPassword(sim)
    // An unknown username gets the same answer too (D6).
    expect(await login(sim, 'nobody.here', 'team-password')).toEqual(await refusal(sim))
    expect((await login(sim, WITH_PASSWORD.username, 'team-password')).status).toBe(200)
  })

  it('keeps updated_at as given, created_at when not', async () => {
    const users = [
      { ...WITHOUT, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-02-01T10:00:00Z' },
      { ...WITH_PASSWORD, id: 'plain', created_at: '2025-03-01T00:00:00Z' },
    ]
    const sim = createSimulator({ seed: 3, clock: CLOCK, scenario: scenario({ users }) })
    const read = async (id: string) => JSON.parse((await send(sim, 'GET', `/admin/api/v1.2/users/${id}`)).text)
    expect(await read('no-pass')).toMatchObject({ created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-02-01T10:00:00.000Z' })
    expect(await read('plain')).toMatchObject({ created_at: '2025-03-01T00:00:00.000Z', updated_at: '2025-03-01T00:00:00.000Z' })
  })

  it('changes nothing else in the world: the same ids, the same hashes for the others, the same ids drawn after', async () => {
    const third = { username: 'third.user', email: 'third@example.com', password: 'other-password' }
    const middle = { username: WITHOUT.username, email: WITHOUT.email }
    const make = (password: string | null) =>
      createSimulator({ seed: 5, clock: CLOCK, scenario: scenario({ generate: { active: 2 }, users: [WITH_PASSWORD, { ...middle, password }, third] }) })
    const without = make(null)
    const withOne = make('some-password')
    const created = async (sim: Simulator) => (await send(sim, 'POST', '/admin/api/v1.2/users', { username: 'late.user', email: 'late@example.com', password: 'long-enough' })).text
    expect(await created(without)).toBe(await created(withOne))
    const users = (sim: Simulator) => sim.snapshot().accounts.users.map(({ id, username, password_hash }) => ({ id, username, password_hash }))
    const [a, b] = [users(without), users(withOne)]
    expect(a.map((user) => user.id)).toEqual(b.map((user) => user.id))
    expect(a).toHaveLength(6)
    for (const [index, user] of a.entries()) {
      const same = b[index]!
      if (user.username === WITHOUT.username) {
        expect(user.password_hash).toBe('none')
        expect(same.password_hash).toMatch(/^pbkdf2-hmac-sha256\$/)
      } else expect(user.password_hash).toBe(same.password_hash)
    }
  })
})

describe('no password through state documents and snapshots', () => {
  const start = () => createSimulator({ seed: 3, clock: CLOCK, scenario: scenario({ users: [WITH_PASSWORD, WITHOUT] }) })

  it('GET /__mock/state shows password: null (no hash), and PUT of it, in a fresh world, keeps the user without one', async () => {
    const sim = start()
    const exported = await send(sim, 'GET', '/__mock/state')
    expect(exported.text).not.toContain('pbkdf2')
    expect(exported.text).not.toContain('team-password')
    const users = JSON.parse(exported.text).accounts.users as Array<Record<string, unknown>>
    expect(users.find((user) => user.id === 'no-pass')).toMatchObject({ username: WITHOUT.username, password: null })
    expect(users.find((user) => user.username === WITH_PASSWORD.username)).not.toHaveProperty('password')

    const fresh = createSimulator({ seed: 8, clock: CLOCK, scenario: 'empty' })
    expect((await send(fresh, 'PUT', '/__mock/state', JSON.parse(exported.text))).status).toBe(200)
    await expectNoPassword(fresh)
    // The same document without `password`: it keeps the one the user has now (none).
    const bare = JSON.parse(exported.text)
    for (const user of bare.accounts.users) delete user.password
    expect((await send(fresh, 'PUT', '/__mock/state', bare)).status).toBe(200)
    await expectNoPassword(fresh)
  })

  it('PUT /__mock/state with a password gives them one; with password: null takes it away', async () => {
    const sim = start()
    const state = JSON.parse((await send(sim, 'GET', '/__mock/state')).text)
    const user = state.accounts.users.find((each: { id: string }) => each.id === 'no-pass')
    user.password = 'given-at-last'
    expect((await send(sim, 'PUT', '/__mock/state', state)).status).toBe(200)
    expect((await login(sim, WITHOUT.username, 'given-at-last')).status).toBe(200)
    const other = state.accounts.users.find((each: { username: string }) => each.username === WITH_PASSWORD.username)
    other.password = null
    expect((await send(sim, 'PUT', '/__mock/state', state)).status).toBe(200)
    await expectNoPassword(sim, WITH_PASSWORD.username, { ...WITHOUT, password: 'given-at-last' })
  })

  it('survives a snapshot, as restore() takes it and as a state file keeps it (JSON, validated on import)', async () => {
    const sim = start()
    await sim.ready
    const snapshot = sim.snapshot()
    expect(snapshot.accounts.users.find((user) => user.id === 'no-pass')?.password_hash).toBe('none')
    expect((await login(sim, WITH_PASSWORD.username, 'team-password')).status).toBe(200)
    await sim.restore(snapshot)
    await expectNoPassword(sim)

    const other = createSimulator({ seed: 3, clock: CLOCK, scenario: 'empty' })
    await other.importState(JSON.parse(JSON.stringify(snapshot)))
    await expectNoPassword(other)
    expect((await login(other, WITH_PASSWORD.username, 'team-password')).status).toBe(200)
  })
})
