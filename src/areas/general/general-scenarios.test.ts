import { decodeJwt, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { createSimulator, type Simulator } from '../../simulator/create-simulator.js'
import { ScenarioError } from '../../kernel/errors/scenario-error.js'
import type { ScenarioInput } from '../../simulator/state/scenario-schema.js'
import { derivedSecret } from './auth/tokens.js'

const CLOCK = '2026-01-01T00:00:00Z'
const user = { username: 'qa.lead', email: 'qa.lead@example.com', status: 'active' as const, password: 'team-password' }

/** Sends one request straight to the simulator's route table. */
async function send(sim: Simulator, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } }
  if (body !== undefined) init.body = JSON.stringify(body)
  const response = await sim.fetch(new Request(`http://sim.test${path}`, init))!
  return { status: response.status, body: await response.json() }
}

const login = (sim: Simulator, username = user.username, password = user.password) => send(sim, 'POST', '/general/auth/login', { username, password })

describe('Area D options and scenarios', () => {
  it('signs with the configured secret and lifetime (auth option)', async () => {
    const sim = createSimulator({ clock: CLOCK, scenario: { accounts: { users: [user] } }, auth: { secret: 'dev-secret', expiresIn: 900 } })
    const reply = await login(sim)
    expect(reply.body.expires_in).toBe(900)
    const { payload } = await jwtVerify(reply.body.token, new TextEncoder().encode('dev-secret'), { algorithms: ['HS256'], currentDate: new Date(CLOCK) })
    expect(payload.exp! - payload.iat!).toBe(900)
  })

  it('refuses invalid auth options at creation', () => {
    for (const auth of [{ secret: '' }, { expiresIn: 0 }, { expiresIn: 1.5 }, { expiresIn: -60 }, { expiresIn: 400_000_000 }, 'secret']) {
      expect(() => createSimulator({ auth: auth as never }), JSON.stringify(auth)).toThrow(ConfigError)
    }
  })

  it('loads listed and generated resources, notifications and the token lifetime from a scenario; the option wins', async () => {
    const scenario: ScenarioInput = {
      accounts: { users: [user] },
      general: {
        resources: [{ id: 5, data: { title: 'Fixed', nested: { list: [1, 2] } }, created_at: '2025-06-01T00:00:00Z' }, { data: { title: 'First free id' } }],
        generate: 2,
        notifications: [
          { id: 'n-old', recipients: [1], message: 'delivered long ago', priority: 'low', queued_at: '2025-12-31T00:00:00Z' },
          { id: 'n-set', recipients: [2, 3], message: 'explicit delivery', queued_at: '2025-12-31T23:59:59Z', delivered_at: '2026-01-02T00:00:00Z' },
        ],
        auth: { expires_in: 120 },
      },
    }
    const sim = createSimulator({ clock: CLOCK, scenario })
    await sim.ready
    const { general } = sim.exportState()
    expect(general.resources.map((resource) => resource.id)).toEqual([5, 1, 6, 7])
    expect(general.resources[0]).toEqual({
      id: 5,
      data: { title: 'Fixed', nested: { list: [1, 2] } },
      created_at: '2025-06-01T00:00:00.000Z',
      updated_at: '2025-06-01T00:00:00.000Z',
    })
    expect(general.resources[2]!.data.owner).toBe('qa.lead')
    expect(general.notifications.map((item) => [item.id, item.status, item.delivered_at])).toEqual([
      ['n-old', 'delivered', '2025-12-31T00:01:00.000Z'],
      ['n-set', 'queued', null],
    ])
    expect((await login(sim)).body.expires_in).toBe(120)
    const overridden = createSimulator({ clock: CLOCK, scenario, auth: { expiresIn: 30 } })
    expect((await login(overridden)).body.expires_in).toBe(30)
    await sim.loadScenario('empty')
    expect(sim.counts()).toMatchObject({ resources: 0, notifications: 0 })
  })

  it('generates 40 resources for a scenario without a general section', async () => {
    const sim = createSimulator({ clock: CLOCK, scenario: 'pending-users' })
    await sim.ready
    expect(sim.counts()).toMatchObject({ resources: 40, notifications: 0 })
  })

  it('refuses an invalid general section, naming the path', () => {
    const bad: Array<[unknown, RegExp]> = [
      [
        {
          resources: [
            { id: 1, data: {} },
            { id: 1, data: {} },
          ],
        },
        /general\.resources\.1\.id: duplicate id 1/,
      ],
      [{ resources: [{ data: { id: 3 } }] }, /general\.resources\.0\.data\.id/],
      [{ resources: [{ data: ['x'] }] }, /general\.resources\.0\.data: must be a JSON object/],
      [{ resources: [{ data: JSON.parse('{"a":{"__proto__":{}}}') }] }, /general\.resources\.0\.data\.a\.__proto__/],
      [{ generate: -1 }, /general\.generate/],
      [{ auth: { expires_in: 0 } }, /general\.auth\.expires_in/],
    ]
    for (const [general, message] of bad) {
      const attempt = () => createSimulator({ scenario: { general } as ScenarioInput })
      expect(attempt).toThrow(ScenarioError)
      expect(attempt).toThrow(message)
    }
  })

  it('restores a snapshot exactly, so the same requests give the same tokens and ids (D24)', async () => {
    const sim = createSimulator({ seed: 4, clock: CLOCK, scenario: { accounts: { users: [user] } } })
    await sim.ready
    const snapshot = sim.snapshot()
    const token = (await login(sim)).body.token
    const queued = await send(sim, 'POST', '/general/notifications/send', { recipient_ids: [1], message: 'hi' })
    await send(sim, 'PUT', '/general/resources/1', { data: { title: 'x' } }, { authorization: `Bearer ${token}` })
    const after = sim.exportState()
    await sim.restore(snapshot)
    expect(sim.exportState().general).toEqual(snapshot.general)
    expect((await login(sim)).body.token).toBe(token)
    expect((await send(sim, 'POST', '/general/notifications/send', { recipient_ids: [1], message: 'hi' })).body.id).toBe(queued.body.id)
    await send(sim, 'PUT', '/general/resources/1', { data: { title: 'x' } }, { authorization: `Bearer ${token}` })
    expect(sim.exportState()).toEqual(after)
  })

  it('gives identical tokens for the same seed and refuses them under another seed', async () => {
    const scenario = { accounts: { users: [user] } }
    const [a, b, other] = [
      createSimulator({ seed: 8, clock: CLOCK, scenario }),
      createSimulator({ seed: 8, clock: CLOCK, scenario }),
      createSimulator({ seed: 9, clock: CLOCK, scenario }),
    ]
    const token = (await login(a)).body.token
    expect((await login(b)).body.token).toBe(token)
    await jwtVerify(token, await derivedSecret(8), { algorithms: ['HS256'], currentDate: new Date(CLOCK) })
    const refused = await send(other, 'PUT', '/general/resources/1', { data: {} }, { authorization: `Bearer ${token}` })
    expect([refused.status, refused.body.error]).toEqual([401, 'invalid_token'])
  })

  it("derives the secret from the loaded scenario's seed", async () => {
    const sim = createSimulator({ clock: CLOCK, scenario: { seed: 21, accounts: { users: [user] } } })
    const token = (await login(sim)).body.token
    await jwtVerify(token, await derivedSecret(21), { algorithms: ['HS256'], currentDate: new Date(CLOCK) })
    expect(decodeJwt(token).username).toBe('qa.lead')
  })
})
