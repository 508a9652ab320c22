import { beforeAll, describe, expect, it } from 'vitest'
import { recordingUpstream } from '../../../test/support/recording-upstream.js'
import { recorderFor } from '../../simulator/recording/recorder-setup.js'
import { scenarioSchema } from '../../simulator/state/scenario-schema.js'
import type { SimulatorInstance } from '../../simulator/simulator-instance.js'
import { DEFAULT_PASSWORD } from '../../world/accounts/account-schema.js'

const BASE = 'http://127.0.0.1:3000/general'
const API_KEY = 'ak-live-5e3f9c1d'
const NESTED_PASSWORD = 'db-Pass-77x'

describe('recording Area D traffic into a scenario', () => {
  const {
    upstream,
    recorder,
    clock,
    reads,
    through: send,
    startReplay,
    ask,
    expectReplayed,
  } = recordingUpstream({
    areas: ['general'],
    base: BASE,
    upstream: { scenario: 'default', auth: { expiresIn: 900 } },
  })
  let token: string

  beforeAll(async () => {
    await upstream.ready
    const user = upstream.exportState().accounts.users.find((account) => account.status === 'active')!

    expect((await send('POST', '/auth/login', { username: user.username, password: 'wrong-Pass-1' })).status).toBe(401)
    token = (await send('POST', '/auth/login', { username: user.username, password: DEFAULT_PASSWORD })).json.token as string
    const bearer = { authorization: `Bearer ${token}` }

    await send('GET', '/data/1')
    await send('GET', '/data/2?fields=title,owner,nope')
    await send('GET', '/data/4')
    await send('GET', '/data/4?fields=title,created_at')
    // Read filtered, then changed (a key dropped), then read filtered again: the key shows as gone.
    await send('GET', '/data/6?fields=title,status')
    await send('PUT', '/resources/6', { data: { title: 'Renamed', kind: 'report' } }, bearer)
    await send('GET', '/data/6?fields=title,status')
    // Data with keys that name secrets, at the top and deeper: never recorded.
    const secretive = {
      title: 'Vault',
      api_key: API_KEY,
      connection: { host: 'db.internal', credentials: { user: 'svc', password: NESTED_PASSWORD } },
      hooks: [{ url: 'https://x.test', token: 'hook-Tok-1' }],
    }
    await send('PUT', '/resources/3', { data: secretive }, bearer)
    await send('GET', '/data/3')
    await send('GET', '/data/987654')
    expect((await send('GET', '/data/first')).status).toBe(400)
    expect((await send('POST', '/notifications/send', { recipient_ids: [3, 1, 3], message: 'Quarterly report is out.', priority: 'high' })).status).toBe(202)
  })

  it('answers every recorded read as the upstream did (bar the keys naming secrets), from the recorded scenario with another seed', async () => {
    const replay = await startReplay()
    expect(reads.size).toBe(8)
    await expectReplayed(replay, (url) => url.endsWith('/data/3'))
    expect((await ask(replay, 'GET', '/data/3')).json).toEqual({
      id: 3,
      title: 'Vault',
      connection: { host: 'db.internal' },
      hooks: [{ url: 'https://x.test' }],
      created_at: expect.any(String),
      updated_at: clock,
    })
    // The notification sent, queued when the scenario loads (the same instant here, the clock being fixed).
    expect(replay.exportState().general.notifications).toEqual(upstream.exportState().general.notifications)
  })

  it('keeps only what the answers showed: no generated resources, the token lifetime, no token or password', () => {
    const scenario = recorder.scenario()
    expect(scenarioSchema.safeParse(scenario).success).toBe(true)
    const general = scenario.general!
    expect(general.generate).toBe(0)
    expect(general.resources!.map((resource) => resource.id)).toEqual([1, 2, 3, 4, 6])
    expect(general.resources![1]!.data).toEqual(JSON.parse(reads.get(`${BASE}/data/2?fields=title,owner,nope`)!.text, (key, value) => (key === 'id' ? undefined : value)))
    expect(general.auth).toEqual({ expires_in: 900 })
    const text = JSON.stringify(scenario)
    for (const secret of [token, 'Bearer', DEFAULT_PASSWORD, 'wrong-Pass-1', API_KEY, NESTED_PASSWORD, 'hook-Tok-1']) expect(text).not.toContain(secret)
    expect(JSON.stringify(general)).not.toMatch(/password|api_key|token|credentials/i)
  })

  it('counts what was kept and says what was left out', () => {
    const [summary] = recorder.summary()
    // A refused login (401) and a bad id (400) changed nothing upstream: read as showing no change.
    expect(summary).toMatchObject({ area: 'general', kept: { 'general.resources': 5, 'general.notifications': 1 }, mapped: 14, unmapped: 0 })
    expect(summary!.examples).toEqual([])
    expect(summary!.left).toEqual([
      "general.resources/3's api_key, connection.credentials, hooks.0.token (keys that name secrets are never recorded; the resource is kept without them)",
    ])
  })

  it("records no general record the traffic did not show: a recorder that saw nothing keeps empty collections, not the start scenario's", () => {
    expect(recorderFor({ dispatcher: (upstream as SimulatorInstance).dispatcher, areas: ['general'], description: 'nothing' }).scenario().general).toEqual({
      generate: 0,
      resources: [],
      notifications: [],
    })
  })
})
