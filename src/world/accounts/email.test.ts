import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../simulator/create-simulator.js'
import { email } from './account-schema.js'

const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z', scenario: 'empty' })

async function send(method: string, path: string, body: unknown) {
  const response = (await sim.fetch(new Request(`http://sim.test${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })))!
  return { status: response.status, body: (await response.json()) as any }
}

describe('email addresses: domain labels never start or end with a hyphen', () => {
  it.each(['a@b-.com', 'a@-b.com', 'a@b.-c.com', 'a@b.c-.com', `a@${'b'.repeat(64)}.com`, 'a@b.c', 'a@b', 'a@b..com'])('refuses %s', (address) => {
    expect(email.safeParse(address).success).toBe(false)
  })

  it.each(['a@b.com', 'a@b-c.com', 'a@b--c.co.uk', 'first.last+tag@sub.example-mail.org', `a@${'b'.repeat(63)}.com`, "o'neil@example.com"])('accepts %s', (address) => {
    expect(email.safeParse(address).success).toBe(true)
  })

  it('is refused with 400 on Area A create and update, Area B create and state import, changing nothing', async () => {
    await sim.reset()
    const user = { username: 'ada.lovelace', email: 'a@b-.com', password: 'analytical-engine' }
    const detail = { path: 'email', message: 'must be a valid email address' }
    expect(await send('POST', '/admin/api/v1.2/users', user)).toMatchObject({ status: 400, body: { error: 'validation_failed', details: [detail] } })
    expect(await send('POST', '/core/users', user)).toMatchObject({ status: 400, body: { error: 'validation_failed', details: [detail] } })
    const created = await send('POST', '/admin/api/v1.2/users', { ...user, email: 'ada@b-c.com' })
    expect(created.status).toBe(201)
    expect(await send('PUT', `/admin/api/v1.2/users/${created.body.id}`, { email: 'a@b-.com' })).toMatchObject({ status: 400, body: { details: [detail] } })
    const state = sim.exportState()
    const broken = { ...state, accounts: { users: [{ ...state.accounts.users[0]!, email: 'a@b-.com' }] } }
    expect(await send('PUT', '/__mock/state', broken)).toMatchObject({
      status: 400,
      body: { details: [{ path: 'accounts.users.0.email', message: 'must be a valid email address' }] },
    })
    expect(sim.db.users.all().map((account) => account.email)).toEqual(['ada@b-c.com'])
  })
})
