import { describe, expect, it } from 'vitest'
import { createSimulator } from '../simulator/create-simulator.js'
import { checkMatch, judge, readJournal, type RequestMatch } from './request-match.js'

const CLOCK = '2026-01-01T00:00:00Z'
const send = (sim: ReturnType<typeof createSimulator>, method: string, path: string, body?: unknown) =>
  sim.fetch(
    new Request(`http://sim.test${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-trace': 'on' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  )!

async function seeded() {
  const sim = createSimulator({ seed: 1, clock: CLOCK, scenario: 'empty' })
  await send(sim, 'POST', '/admin/api/v1.2/users', { username: 'ada', email: 'ada@example.com', password: 'long-enough' })
  const [ada] = sim.db.users.all()
  await send(sim, 'PUT', `/admin/api/v1.2/users/${ada!.id}`, { status: 'active' })
  await send(sim, 'PUT', `/admin/api/v1.2/users/nobody`, { status: 'active' })
  await send(sim, 'GET', '/core/users?limit=5&offset=0')
  return { sim, ada: ada! }
}

const verdict = (sim: ReturnType<typeof createSimulator>, match: RequestMatch, options: { times?: number } = {}, isNot = false) =>
  judge(match, options, readJournal(sim.journal, match, sim.worldId), isNot)

describe('request matching (shared by the Playwright and vitest matchers)', () => {
  it('matches on method, path (as the journal filters it), area, status, query, headers and a partial body', async () => {
    const { sim, ada } = await seeded()
    expect(verdict(sim, { method: 'put', path: '/admin/api/v1.2/users/{id}', status: '2xx' }).matched.map((entry) => entry.path)).toEqual([`/admin/api/v1.2/users/${ada.id}`])
    expect(verdict(sim, { path: '/api/v1.2/users/*' }).matched).toHaveLength(2)
    expect(verdict(sim, { area: 'core', query: { limit: '5' }, headers: { 'X-Trace': 'on' } }).matched).toHaveLength(1)
    expect(verdict(sim, { body: { username: 'ada' } }).matched.map((entry) => entry.method)).toEqual(['POST'])
    // The PUT for an unknown user was refused before its body was read: the journal has no body for it.
    expect(verdict(sim, { body: { status: 'active' } }, { times: 1 }).pass).toBe(true)
    expect(verdict(sim, { body: { status: 'active' } }, { times: 2 }).pass).toBe(false)
    expect(verdict(sim, { method: 'DELETE' }).pass).toBe(false)
  })

  it('explains a miss with the closest entries, newest first among equals, and how each differs', async () => {
    const { sim, ada } = await seeded()
    const message = verdict(sim, { method: 'PUT', path: '/admin/api/v1.2/users/*', status: 204, body: { status: 'inactive' } }).message()
    expect(message).toContain('Expected: PUT /admin/api/v1.2/users/* (status 204, body containing {"status":"inactive"}), at least once')
    expect(message).toContain('Received: 0 matching requests among 4 requests in the journal of the default world')
    expect(message).toContain('Closest 3 entries (of 4 that differ), - expected + received:')
    // The known user's PUT differs in two fields (status, body), the unknown one's too but it is newer: it comes first.
    const lines = message.split('\n')
    const first = lines.findIndex((line) => line.includes('#3 PUT /admin/api/v1.2/users/nobody → 404'))
    const second = lines.findIndex((line) => line.includes(`#2 PUT /admin/api/v1.2/users/${ada.id} → 200`))
    expect(first).toBeGreaterThan(0)
    expect(second).toBeGreaterThan(first)
    expect(lines.slice(second + 1, second + 5).map((line) => line.trim())).toEqual(['status       - 204', '+ 200', 'body.status  - "inactive"', '+ "active"'])
  })

  it('says how many matched when `times` is wrong, and what matched under `.not`', async () => {
    const { sim } = await seeded()
    const tooMany = verdict(sim, { method: 'PUT' }, { times: 1 })
    expect(tooMany.message()).toContain('Expected: PUT any path, exactly once')
    expect(tooMany.message()).toContain('Received: 2 matching requests among 4')
    expect(tooMany.message()).toMatch(/Matching requests:\n {2}#2 PUT .*\n {2}#3 PUT /)
    const negated = verdict(sim, { area: 'core' }, {}, true)
    expect(negated.pass).toBe(true)
    expect(negated.message()).toContain('Expected not: any method any path (area core), at least once')
    expect(negated.message()).toContain('#4 GET /core/users?limit=5&offset=0 → 200')
  })

  it('says so when the journal is empty', () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK, scenario: 'empty' })
    expect(verdict(sim, { method: 'GET' }).message()).toContain('No request reached the simulator in the default world')
  })

  it('refuses a malformed match or options, naming every problem', () => {
    expect(() => checkMatch({ path: 'users', status: 'bad', colour: 'red' }, { times: -1 })).toThrow(
      'toHaveReceivedRequest: match.path: must start with "/"; match.status: must be a status like 404 or a class like "4xx"; match: Unrecognized key: "colour"; options.times: must be 0 or more.',
    )
  })
})
