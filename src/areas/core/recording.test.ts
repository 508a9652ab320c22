import { describe, expect, it } from 'vitest'
import { recordingUpstream } from '../../../test/support/recording-upstream.js'
import type { Simulator } from '../../simulator/create-simulator.js'
import { recordingSummaryLines } from '../../simulator/recording/recorder-setup.js'
import { scenarioSchema } from '../../simulator/state/scenario-schema.js'
import type { RecordedSection } from '../../world/recording.js'
import { coreSectionRecording } from './recording.js'

// A simulator with another seed stands in for the real backend: what it answers
// is recorded, and a simulator loaded with the recording must answer the same.
const CORE = 'http://localhost/core'
const ADMIN_USERS = 'http://localhost/admin/api/v1.2/users'
const NEW_PASSWORD = 'created-in-area-b'

/** An upstream and a recorder of its Area A and B answers. */
const recording = () => recordingUpstream({ areas: ['admin', 'core'], base: CORE })

const userPages = [0, 20, 40].map((offset) => `${CORE}/users?limit=20&offset=${offset}`)
const seenProducts = ['prod-1001', 'prod-1002', 'prod-1005'].map((id) => `${CORE}/products/${id}`)

describe('recording Area B (core)', () => {
  it('replays the recorded reads as the upstream answers them: users (one created here), products seen, none invented', async () => {
    const { upstream, recorder, through, ask, startReplay } = recording()
    for (const page of userPages) expect((await through('GET', page)).status).toBe(200)
    const created = await through('POST', '/users', { username: 'ada.lovelace', email: 'ada@example.com', password: NEW_PASSWORD })
    expect(created.status).toBe(201)
    const createdId = created.json.id as string
    for (const url of seenProducts) expect((await through('GET', url)).status).toBe(200)
    expect((await through('PUT', '/products/prod-1002', { price: 12.34, stock: 3 })).status).toBe(200)
    // An unknown product and a refused update: nothing kept.
    expect((await through('GET', '/products/prod-0')).status).toBe(404)
    expect((await through('PUT', '/products/prod-1005', { price: 10.555 })).status).toBe(400)
    await through('POST', '/ingest/data', [{ timestamp: '2026-01-01T00:00:00Z', value: 1, sensor_id: 's1' }])

    const scenario = recorder.scenario()
    expect(scenarioSchema.safeParse(scenario).success).toBe(true)
    expect(scenario.core).toEqual({ products: seenProducts.map((url) => expect.objectContaining({ id: url.split('/').pop() })) })
    const text = JSON.stringify(scenario)
    for (const secret of [NEW_PASSWORD, 'Passw0rd!', 'pbkdf2']) expect(text).not.toContain(secret)

    const replay = await startReplay()
    const reads = [...userPages, `${CORE}/users?limit=100&offset=45`, ...seenProducts, `${CORE}/products/prod-0`, `${ADMIN_USERS}/${createdId}`]
    for (const url of reads) expect(await ask(replay, 'GET', url), url).toEqual(await ask(upstream, 'GET', url))
    expect((await ask(replay, 'GET', '/products/prod-1002')).json).toMatchObject({ price: 12.34, stock: 3 })
    expect((await ask(replay, 'GET', '/users?limit=1')).total).toBe('49')
    // A product the traffic never showed is not invented.
    expect((await ask(upstream, 'GET', '/products/prod-1003')).status).toBe(200)
    expect((await ask(replay, 'GET', '/products/prod-1003')).status).toBe(404)

    const login = (sim: Simulator, password: string) => ask(sim, 'POST', 'http://localhost/general/auth/login', { username: 'ada.lovelace', password })
    const wrong = await login(upstream, 'not-the-password')
    expect(wrong.status).toBe(401)
    expect(await login(replay, NEW_PASSWORD)).toEqual(wrong)

    expect(recorder.summary().find((summary) => summary.area === 'core')).toMatchObject({ kept: { 'accounts.users': 49, 'core.products': 3 }, mapped: 10, unmapped: 1 })
    expect(recordingSummaryLines(recorder.summary())).toEqual([
      'admin: 0 records kept; 0 answers not mapped',
      'core: 52 records kept (accounts.users 49, core.products 3); 1 answer not mapped: POST /core/ingest/data (200): readings have no place in scenarios: a scenario starts with nothing ingested',
    ])
  })

  it('records no product when the traffic showed none: an empty catalogue, not the fixture one', async () => {
    const { recorder, through, ask, startReplay } = recording()
    await through('GET', '/users?limit=5')
    const scenario = recorder.scenario()
    expect(scenario.core).toEqual({ products: [] })
    const replay = await startReplay()
    expect((await ask(replay, 'GET', '/products/prod-1001')).status).toBe(404)
  })

  it('leaves out a product the scenario would refuse, saying why', () => {
    const seen = (fields: Record<string, unknown>): RecordedSection => ({ collections: new Map([['products', new Map([[fields.id as string, fields]])]]), settings: new Map() })
    const product = { id: 'p-1', name: 'Lamp', description: '', price: 1.5, stock: 2 }
    expect(coreSectionRecording.scenario(seen(product), { products: 'catalogue' })).toEqual({ scenario: { products: [product] }, left: [] })
    expect(coreSectionRecording.scenario(seen({ ...product, price: 1.505 }), undefined)).toEqual({
      scenario: { products: [] },
      left: ['products/p-1: price must have at most 2 decimals'],
    })
  })
})
