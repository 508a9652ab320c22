/**
 * Races over HTTP against the real CLI server, with hundreds of requests in
 * flight at once (one socket each): unique usernames and single-use
 * signatures stay unique, a reset or scenario load in the middle of traffic
 * never shows or leaves a half-loaded world, and concurrent PUTs to one
 * resource leave it equal to one of them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import validators from '../fixtures/validators.json' with { type: 'json' }
import { type CliServer, startCli } from './support/cli-server.js'
import { createPool, type Pool, type PoolReply } from './support/pool.js'

let server: CliServer
let pool: Pool

beforeAll(async () => {
  server = await startCli(['--seed', '1', '--clock', '2026-01-01T00:00:00Z', '--quiet'])
  pool = createPool(server.url, 1_000)
})
afterAll(async () => {
  pool?.close()
  await server?.stop()
})
beforeEach(async () => {
  expect((await pool.send('POST', '/__mock/scenarios/default')).status).toBe(200)
})

function statuses(replies: PoolReply[]): Record<number, number> {
  const counts: Record<number, number> = {}
  for (const reply of replies) counts[reply.status] = (counts[reply.status] ?? 0) + 1
  return counts
}

it('1,000 concurrent creates of one username: exactly one 201 and 999 409s, through Areas A and B alike', async () => {
  const body = (index: number) => ({ username: index % 3 === 0 ? 'Race.Winner' : 'race.winner', email: `racer${index}@example.com`, password: 'Passw0rd!' })
  const replies = await Promise.all(
    Array.from({ length: 1_000 }, (_, index) => pool.send('POST', index % 2 === 0 ? '/admin/api/v1.2/users' : '/core/users', { json: body(index) })),
  )
  expect(statuses(replies)).toEqual({ 201: 1, 409: 999 })
  for (const reply of replies.filter((item) => item.status === 409)) expect(reply.body).toMatchObject({ error: 'conflict', field: 'username' })
  const users = (await pool.send('GET', '/admin/api/v1.2/users?limit=100')).body as Array<{ username: string }>
  expect(users.filter((user) => user.username.toLowerCase() === 'race.winner')).toHaveLength(1)
  expect(users).toHaveLength(49)
})

it('500 concurrent delegations with one signature: exactly one 202, the rest 409', async () => {
  const active = validators.filter((validator) => validator.status === 'active')
  const signature = `0x${'ace'.padEnd(64, '0')}${'1'.padStart(64, '0')}1b`
  const delegation = (index: number) => ({
    delegatorAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    validatorAddress: active[index % active.length]!.address,
    amount: String(1000 + index),
    // Half of them re-encode v (27 as 00): still the same signature (D23).
    signature: index % 2 === 0 ? signature : `${signature.slice(0, 130)}00`,
  })
  const before = (await pool.send('GET', '/__mock/state')).body.ledger.delegations.length
  const replies = await Promise.all(Array.from({ length: 500 }, (_, index) => pool.send('POST', '/ledger/v1/stake/delegate', { json: delegation(index) })))
  expect(statuses(replies)).toEqual({ 202: 1, 409: 499 })
  expect((await pool.send('GET', '/__mock/state')).body.ledger.delegations).toHaveLength(before + 1)
})

describe('a reset or scenario load in the middle of traffic', () => {
  /** What the world's list of users looks like in each scenario: ids of the first page, and the total. */
  async function usersView(): Promise<string> {
    const reply = await pool.send('GET', '/admin/api/v1.2/users?limit=100')
    expect(reply.status).toBe(200)
    return `${reply.headers['x-total-count']}:${(reply.body as Array<{ id: string }>).map((user) => user.id).join(',')}`
  }

  it('every answer comes from the old world or the new one, and the world loaded last equals a fresh load', async () => {
    const fresh = (await pool.send('GET', '/__mock/state')).body
    const defaultView = await usersView()
    expect((await pool.send('POST', '/__mock/scenarios/pending-users')).status).toBe(200)
    const pendingView = await usersView()
    expect((await pool.send('POST', '/__mock/scenarios/empty')).status).toBe(200)
    const emptyView = await usersView()
    expect((await pool.send('POST', '/__mock/scenarios/default')).status).toBe(200)
    expect((await pool.send('GET', '/__mock/state')).body).toEqual(fresh)

    let running = true
    const views = new Map<string, number>()
    const problems: string[] = []
    // Readers: the whole list of users, which must always be one world's.
    const reader = async () => {
      while (running) {
        const view = await usersView()
        views.set(view, (views.get(view) ?? 0) + 1)
      }
    }
    // Writers: new particle pairs (they take ids from the world's seeded source) and logins (a PBKDF2 check, then a write).
    const writer = async (index: number) => {
      for (let round = 0; running; round++) {
        const reply =
          index % 2 === 0
            ? await pool.send('POST', '/quantum/v1/entangle', { json: { particle_type: 'photon', entanglement_mode: 'polarization' } })
            : await pool.send('GET', `/core/users?limit=1&offset=${round % 40}`)
        if (reply.status >= 500) problems.push(`${reply.status} ${reply.text}`)
      }
    }
    const traffic = [...Array.from({ length: 30 }, reader), ...Array.from({ length: 30 }, (_, index) => writer(index))]
    for (const scenario of ['empty', 'pending-users', 'default', 'empty', 'default', 'pending-users', 'default']) {
      await new Promise((resolve) => setTimeout(resolve, 40))
      const reply = await pool.send('POST', `/__mock/scenarios/${scenario}`)
      expect(reply.status).toBe(200)
    }
    expect((await pool.send('POST', '/__mock/reset')).status).toBe(200)
    running = false
    await Promise.all(traffic)

    expect(problems).toEqual([])
    const seen = [...views.keys()]
    expect(
      seen.filter((view) => ![defaultView, pendingView, emptyView].includes(view)),
      'a list of users no scenario has',
    ).toEqual([])
    expect(seen.length).toBeGreaterThan(1)

    // The last load was the default scenario: its seeded records are exactly a fresh load's. Pairs made
    // after it are new records on top; nothing a request in flight did may have changed what it seeded.
    const final = (await pool.send('GET', '/__mock/state')).body
    const { quantum: finalQuantum, meta: _finalMeta, ...finalRest } = final
    const { quantum: freshQuantum, meta: _freshMeta, ...freshRest } = fresh
    expect(finalRest).toEqual(freshRest)
    expect(finalQuantum.platform).toEqual(freshQuantum.platform)
    expect(finalQuantum.pairs.slice(0, freshQuantum.pairs.length)).toEqual(freshQuantum.pairs)
  }, 60_000)
})

it('200 concurrent PUTs to one resource leave it equal to one of them', async () => {
  const active = (await pool.send('GET', '/admin/api/v1.2/users?status=active&limit=1')).body[0]
  const login = await pool.send('POST', '/general/auth/login', { json: { username: active.username, password: 'Passw0rd!' } })
  expect(login.status).toBe(200)
  const headers = { authorization: `Bearer ${login.body.token}` }
  const data = (index: number) => ({ title: `version ${index}`, index, tags: Array.from({ length: index % 7 }, (_, tag) => `t${index}-${tag}`) })
  const replies = await Promise.all(Array.from({ length: 200 }, (_, index) => pool.send('PUT', '/general/resources/1', { json: { data: data(index) }, headers })))
  expect(statuses(replies)).toEqual({ 200: 200 })
  replies.forEach((reply, index) => expect(reply.body.resource).toMatchObject({ id: 1, ...data(index) }))

  const final = (await pool.send('GET', '/general/data/1')).body
  const { id, created_at: _created, updated_at: _updated, ...rest } = final
  expect(id).toBe(1)
  expect(rest).toEqual(data(rest.index))
})
