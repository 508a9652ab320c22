import { describe, expect, it } from 'vitest'
import { createSimulator } from '../create-simulator.js'
import { engineOf } from '../engine.js'
import { recorderFor, recordingSummaryLines } from './recorder-setup.js'
import { scenarioSchema } from '../state/scenario-schema.js'

const CLOCK = '2026-03-01T12:00:00.000Z'
const ORIGIN = 'http://127.0.0.1:4000'

async function setup(areas: string[] = ['admin']) {
  const sim = createSimulator({ scenario: 'empty', seed: 3, clock: CLOCK })
  await sim.ready
  return recorderFor({ dispatcher: engineOf(sim).dispatcher, areas, scenario: 'entangled-pairs', seed: 42, description: 'unit test' })
}

const ada = { id: 'u-1', username: 'ada', email: 'ada@example.com', status: 'active', created_at: '2025-01-01T00:00:00.000Z' }
const adaDetail = { ...ada, updated_at: '2025-02-01T00:00:00.000Z', last_login: '2025-03-01T00:00:00.000Z' }

describe('Recorder', () => {
  it('merges later answers about a record key by key, and a 404 for it removes it', async () => {
    const recorder = await setup()
    const grace = { ...ada, id: 'u-2', username: 'grace', email: 'grace@example.com' }
    recorder.record({ method: 'GET', url: `${ORIGIN}/admin/api/v1.2/users?limit=100`, status: 200, responseText: JSON.stringify([ada, grace]) })
    recorder.record({ method: 'GET', url: `${ORIGIN}/admin/api/v1.2/users/u-1`, status: 200, responseText: JSON.stringify(adaDetail) })
    recorder.record({
      method: 'GET',
      url: `${ORIGIN}/admin/api/v1.2/users/u-2`,
      status: 404,
      responseText: JSON.stringify({ error: 'not_found', message: 'No user with id "u-2".' }),
    })
    const users = (recorder.scenario().accounts as { users: unknown[] }).users
    expect(users).toEqual([{ ...adaDetail, password: null }])
    expect(recordingSummaryLines(recorder.summary())).toEqual(['admin: 1 record kept (accounts.users 1); 0 answers not mapped'])
  })

  it('reads an answer repeated at once only once, and one repeated after another answer again', async () => {
    const recorder = await setup()
    const list = { method: 'GET', url: `${ORIGIN}/admin/api/v1.2/users`, status: 200, responseText: JSON.stringify([ada]) }
    const gone = { method: 'GET', url: `${ORIGIN}/admin/api/v1.2/users/u-1`, status: 404, responseText: '{"error":"not_found","message":"No user."}' }
    for (const answer of [list, list, gone, gone]) recorder.record(answer)
    expect((recorder.scenario().accounts as { users: unknown[] }).users).toEqual([])
    // The list again after the 404: its user is back, as the backend showed it last.
    recorder.record(list)
    expect((recorder.scenario().accounts as { users: unknown[] }).users).toEqual([{ ...ada, password: null }])
    expect(recorder.summary()[0]).toMatchObject({ mapped: 5, unmapped: 0 })
  })

  it('counts an answer that is not as documented, a path of no route and an unreadable body as not mapped, naming the first few', async () => {
    const recorder = await setup()
    recorder.record({ method: 'GET', url: `${ORIGIN}/admin/api/v1.2/users`, status: 200, responseText: '{"not":"a list"}' })
    recorder.record({ method: 'GET', url: `${ORIGIN}/admin/api/v9/things`, status: 200, responseText: '[]' })
    recorder.record({ method: 'GET', url: `${ORIGIN}/admin/api/v1.2/users/u-1`, status: 200, unreadable: 'a body was over 8 MiB' })
    recorder.record({ method: 'GET', url: `${ORIGIN}/admin/api/v1.2/users/u-3`, status: 200 })
    const [summary] = recorder.summary()
    expect(summary).toMatchObject({ area: 'admin', mapped: 0, unmapped: 4, kept: {} })
    expect(summary!.examples).toHaveLength(3)
    expect(summary!.examples[0]).toMatch(/^GET \/admin\/api\/v1\.2\/users \(200\): the answer is not as documented/)
    expect(summary!.examples[1]).toBe('GET /admin/api/v9/things (200): no route of the area has this path and method')
    expect(summary!.examples[2]).toBe('GET /admin/api/v1.2/users/u-1 (200): a body was over 8 MiB')
    recorder.record({ method: 'GET', url: `${ORIGIN}/admin/api/v1.2/users/u-3`, status: 200 })
    recorder.record({ method: 'GET', url: `${ORIGIN}/admin/api/v1.2/users/u-3`, status: 200, responseText: '<html>' })
    expect(recordingSummaryLines(recorder.summary())[0]).toMatch(/^admin: 0 records kept; 6 answers not mapped: /)
    // A HAR file may hold no body (devtools leave some out): said as such.
    const bodiless = await setup()
    bodiless.record({ method: 'GET', url: `${ORIGIN}/admin/api/v1.2/users/u-3`, status: 200 })
    bodiless.record({ method: 'GET', url: `${ORIGIN}/admin/api/v1.2/users/u-3`, status: 200, responseText: '<html>' })
    expect(bodiless.summary()[0]!.examples).toEqual([
      'GET /admin/api/v1.2/users/u-3 (200): the traffic holds no body for this answer',
      'GET /admin/api/v1.2/users/u-3 (200): the answer is not JSON',
    ])
  })

  it('ignores preflights, other areas and paths of no area', async () => {
    const recorder = await setup()
    expect(recorder.record({ method: 'OPTIONS', url: `${ORIGIN}/admin/api/v1.2/users`, status: 204 })).toBe(false)
    expect(recorder.record({ method: 'GET', url: `${ORIGIN}/core/users`, status: 200, responseText: '[]' })).toBe(false)
    expect(recorder.record({ method: 'GET', url: `${ORIGIN}/assets/app.js`, status: 200, responseText: 'x' })).toBe(false)
    expect(recorder.summary()[0]).toMatchObject({ mapped: 0, unmapped: 0 })
  })

  it('replaces only the recorded sections of the start scenario, with the given seed and description', async () => {
    const recorder = await setup()
    recorder.record({ method: 'GET', url: `${ORIGIN}/admin/api/v1.2/users/u-1`, status: 200, responseText: JSON.stringify(adaDetail) })
    const scenario = recorder.scenario() as Record<string, unknown>
    expect(scenario.description).toBe('unit test')
    expect(scenario.seed).toBe(42)
    expect(scenario.$schema).toBeUndefined()
    // Area C was not recorded: its section is the start scenario's, so it still answers as simulated.
    expect((scenario.quantum as { pairs: unknown[] }).pairs).toHaveLength(4)
    expect(scenario.accounts).toEqual({ users: [{ ...adaDetail, password: null }] })
    expect(scenarioSchema.safeParse(scenario).success).toBe(true)
  })

  it("records nothing of a section no answer showed: the recorded area section is empty, not the start scenario's", async () => {
    const recorder = await setup(['admin'])
    expect(recorder.scenario().accounts).toEqual({ users: [] })
    const sim = createSimulator({ scenario: recorder.scenario(), clock: CLOCK })
    await sim.ready
    const answer = await sim.fetch(new Request(`${ORIGIN}/admin/api/v1.2/users`))!
    expect(answer.headers.get('x-total-count')).toBe('0')
    expect(await answer.json()).toEqual([])
  })

  it('keeps no credential an answer or a request held, whatever its key (issue 43: an echoed bearer token was recorded)', async () => {
    const recorder = await setup(['general'])
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ'
    const resource = { id: 1, title: 'Q3', debug: `Bearer ${jwt}`, tags: ['a', jwt], auth: { expires_in: 900 }, created_at: CLOCK, updated_at: CLOCK }
    expect(recorder.record({ method: 'GET', url: `${ORIGIN}/general/data/1`, status: 200, responseText: JSON.stringify(resource) })).toBe(true)
    const queued = { id: 'n-1', status: 'queued', recipients: [1], priority: 'normal' }
    const sent = { recipient_ids: [1], message: `your token: ${jwt}` }
    recorder.record({ method: 'POST', url: `${ORIGIN}/general/notifications/send`, status: 202, requestText: JSON.stringify(sent), responseText: JSON.stringify(queued) })
    const scenario = recorder.scenario()
    expect(JSON.stringify(scenario)).not.toContain(jwt)
    const general = scenario.general as { resources: Array<{ data: Record<string, unknown> }>; notifications: Array<{ message: string }> }
    expect(general.resources[0]!.data).toEqual({ title: 'Q3', tags: ['a', null], auth: { expires_in: 900 } })
    expect(general.notifications[0]!.message).toBe('your token: [redacted]')
    expect(recorder.summary()[0]!.left).toEqual([expect.stringContaining('debug, tags.1 (keys that name secrets are never recorded')])
    expect(scenarioSchema.safeParse(scenario).success).toBe(true)
  })
})
