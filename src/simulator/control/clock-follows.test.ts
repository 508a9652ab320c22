import { describe, expect, it } from 'vitest'
import { createSimulator } from '../create-simulator.js'

/**
 * Issue 10: everything time-based follows the simulator clock, and only the
 * clock: each value below moves when nothing but `sim.clock` moves.
 */
describe('everything time-based follows the simulator clock', () => {
  const sim = createSimulator({ seed: 5, clock: '2026-01-01T00:00:00Z' })
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...headers } }
    if (body !== undefined) init.body = JSON.stringify(body)
    const response = await sim.fetch(new Request(`http://sim.test${path}`, init))!
    return { status: response.status, body: await response.json().catch(() => null) }
  }
  const state = () => sim.exportState()

  it('token expiry, notification delivery, block height and inclusion, updated_at and last_login, quantum load', async () => {
    await sim.ready
    // Area A/D: a user logs in; its last_login and the token's iat are now.
    const [user] = (await send('GET', '/admin/api/v1.2/users?status=active&limit=1')).body
    const login = await send('POST', '/general/auth/login', { username: user.username, password: 'Passw0rd!' })
    expect(login.status).toBe(200)
    expect((await send('GET', `/admin/api/v1.2/users/${user.id}`)).body.last_login).toBe('2026-01-01T00:00:00.000Z')
    const bearer = { authorization: `Bearer ${login.body.token}` }
    expect((await send('PUT', '/general/resources/1', { data: { title: 'while valid' } }, bearer)).status).toBe(200)

    // Area D: a normal-priority notification is queued.
    const queued = await send('POST', '/general/notifications/send', { recipient_ids: [1], message: 'hello' })
    expect(queued.status).toBe(202)
    const notification = () => state().general.notifications.find((item: { id: unknown }) => item.id === queued.body.id)!

    // Area E: the chain's height, and a delegation waiting for the next block.
    const height = (await send('GET', '/ledger/v1/status')).body.network_height
    const delegated = await send('POST', '/ledger/v1/stake/delegate', {
      delegatorAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
      validatorAddress: '0x87148ec17A1bD256911257B51321a032a2826C8e',
      amount: '1000',
      signature: `0x${'cd'.repeat(64)}1b`,
    })
    expect(delegated.status).toBe(202)
    const delegation = () => state().ledger.delegations.at(-1)!

    // Area C: activity raises the load.
    const pair = await send('POST', '/quantum/v1/entangle', { particle_type: 'photon' })
    for (let i = 0; i < 5; i++) await send('POST', '/quantum/v1/measure', { particle_id: pair.body.particle_id_a })
    const busy = (await send('GET', '/quantum/v1/status')).body.load_percentage

    // Nothing has moved yet while the clock stands still.
    expect(notification().status).toBe('queued')
    expect(delegation().status).toBe('pending')
    expect((await send('GET', '/ledger/v1/status')).body.network_height).toBe(height)

    sim.clock.advance('2m')
    expect(notification()).toMatchObject({ status: 'delivered', delivered_at: '2026-01-01T00:00:05.000Z' })
    expect((await send('GET', '/ledger/v1/status')).body.network_height).toBe(height + 20)
    expect(delegation().status).toBe('included')
    expect((await send('GET', '/quantum/v1/status')).body.load_percentage).toBeLessThan(busy)
    const updated = await send('PUT', `/admin/api/v1.2/users/${user.id}`, { status: 'inactive' })
    expect(updated.body.updated_at).toBe('2026-01-01T00:02:00.000Z')
    await send('PUT', `/admin/api/v1.2/users/${user.id}`, { status: 'active' })

    sim.clock.advance('1h')
    const expired = await send('PUT', '/general/resources/1', { data: { title: 'too late' } }, bearer)
    expect(expired.status).toBe(401)
    expect(expired.body.error).toBe('token_expired')
  })
})
