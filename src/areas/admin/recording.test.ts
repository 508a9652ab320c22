import { describe, expect, it } from 'vitest'
import { type RecordingAnswer, recordingUpstream } from '../../../test/support/recording-upstream.js'
import type { Simulator } from '../../simulator/create-simulator.js'
import { recordingSummaryLines } from '../../simulator/recording/recorder-setup.js'
import { scenarioSchema } from '../../simulator/state/scenario-schema.js'

// A simulator with another seed stands in for the real backend: what it answers
// is recorded, and a simulator loaded with the recording must answer the same.
const USERS = 'http://localhost/admin/api/v1.2/users'
const NEW_PASSWORD = 'created-through-the-proxy'

/** An upstream and a recorder of its Area A answers. */
const recording = () => recordingUpstream({ areas: ['admin'] })

const ids = (answer: RecordingAnswer) => (answer.json as Array<{ id: string }>).map((user) => user.id)

describe('recording Area A (admin)', () => {
  it('replays the recorded reads as the upstream answers them: lists, details, the created user, the deleted one gone', async () => {
    const { upstream, recorder, through, ask, startReplay } = recording()
    const pages = [1, 2, 3].map((page) => `${USERS}?page=${page}&limit=20`)
    const listed = (await Promise.all(pages.map((page) => through('GET', page)))).flatMap(ids)
    expect(listed).toHaveLength(48)
    for (const id of listed) expect((await through('GET', `${USERS}/${id}`)).status).toBe(200)
    await through('GET', `${USERS}?status=pending&limit=100`)

    const created = await through('POST', USERS, { username: 'grace.hopper', email: 'grace@example.com', password: NEW_PASSWORD })
    expect(created.status).toBe(201)
    const createdId = created.json.id as string
    const [updated, deleted] = [listed[3]!, listed[5]!]
    expect((await through('PUT', `${USERS}/${updated}`, { status: 'inactive', email: 'renamed@example.com' })).status).toBe(200)
    expect((await through('DELETE', `${USERS}/${deleted}`)).status).toBe(204)
    expect((await through('GET', `${USERS}/no-such-user`)).status).toBe(404)
    // Answers that change nothing: mapped, nothing kept.
    expect((await through('GET', `${USERS}?page=0`)).status).toBe(400)
    expect((await through('POST', USERS, { username: 'GRACE.HOPPER', email: 'other@example.com', password: NEW_PASSWORD })).status).toBe(409)

    const scenario = recorder.scenario()
    expect(scenarioSchema.safeParse(scenario).success).toBe(true)
    const text = JSON.stringify(scenario)
    for (const secret of [NEW_PASSWORD, 'Passw0rd!', 'pbkdf2']) expect(text).not.toContain(secret)

    const replay = await startReplay()
    const reads = [
      ...pages,
      `${USERS}?page=4&limit=20`,
      `${USERS}?status=pending&limit=100`,
      `${USERS}?status=inactive&limit=5&page=2`,
      ...listed.filter((id) => id !== deleted).map((id) => `${USERS}/${id}`),
      `${USERS}/${createdId}`,
      `${USERS}/${deleted}`,
      `${USERS}/no-such-user`,
    ]
    for (const url of reads) expect(await ask(replay, 'GET', url), url).toEqual(await ask(upstream, 'GET', url))
    expect((await ask(replay, 'GET', `${USERS}/${createdId}`)).status).toBe(200)
    expect((await ask(replay, 'GET', `${USERS}/${deleted}`)).status).toBe(404)
    expect((await ask(replay, 'GET', `${USERS}?limit=100`)).total).toBe('48')
  })

  it('gives recorded users no password: logging in as one is refused as a wrong password is', async () => {
    const { upstream, through, ask, startReplay } = recording()
    const [first] = ids(await through('GET', `${USERS}?status=active&limit=1`))
    const created = (await through('POST', USERS, { username: 'grace.hopper', email: 'grace@example.com', password: NEW_PASSWORD })).json
    const { username } = (await through('GET', `${USERS}/${first}`)).json
    const login = (sim: Simulator, name: string, password: string) => ask(sim, 'POST', 'http://localhost/general/auth/login', { username: name, password })
    expect((await login(upstream, username, 'Passw0rd!')).status).toBe(200)

    const replay = await startReplay()
    const wrong = await login(upstream, username, 'not-the-password')
    expect(wrong.status).toBe(401)
    expect(await login(replay, username, 'Passw0rd!')).toEqual(wrong)
    expect(await login(replay, created.username, NEW_PASSWORD)).toEqual(wrong)
  })

  it('sums up what it kept and what it could not map', async () => {
    const { recorder, through } = recording()
    const listed = ids(await through('GET', `${USERS}?limit=10`))
    await through('DELETE', `${USERS}/${listed[0]}`)
    await through('GET', `${USERS}/${listed[1]}`)
    await through('GET', `${USERS}?limit=500`)
    // A failing backend shows nothing of its users.
    recorder.record({ method: 'GET', url: `${USERS}/${listed[2]}`, status: 503, responseText: '{"error":"unavailable"}' })

    const [summary] = recorder.summary()
    expect(summary).toMatchObject({ area: 'admin', kept: { 'accounts.users': 9 }, mapped: 4, unmapped: 1, left: [] })
    expect(recordingSummaryLines(recorder.summary())).toEqual([
      `admin: 9 records kept (accounts.users 9); 1 answer not mapped: GET /admin/api/v1.2/users/${listed[2]} (503): the backend failed (503): the answer shows nothing of its records`,
    ])
    expect((recorder.scenario().accounts?.users ?? []).map((user) => user.id)).toEqual(listed.slice(1))
  })
})
