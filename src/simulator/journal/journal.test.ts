import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { createSimulator } from '../create-simulator.js'
import type { JournalEntry } from './journal-entry.js'

const CLOCK = '2026-01-01T00:00:00Z'
const get = (path: string) => new Request(`http://sim.test${path}`)
const post = (path: string, body: unknown) => new Request(`http://sim.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('sim.journal', () => {
  it('answers typed queries in-process: exactly one POST, and it was 201', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK })
    await sim.fetch(post('/admin/api/v1.2/users', { username: 'one.post', email: 'one@example.com', password: 'long-enough' }))
    await sim.fetch(get('/core/users'))
    const posts: JournalEntry[] = sim.journal.find({ method: 'POST', path: '/admin/api/v1.2/users' })
    expect(posts).toHaveLength(1)
    expect(posts[0]!.status).toBe(201)
    expect(sim.journal.find({ since: new Date(Date.parse(CLOCK) + 1) })).toEqual([])
    expect(sim.journal.find({ status: 200 }).map((entry) => entry.path)).toEqual(['/core/users'])
    sim.journal.clear()
    expect(sim.journal.size).toBe(0)
  })

  it('keeps only the last `size` entries, and nothing with size 0', async () => {
    const small = createSimulator({ seed: 1, clock: CLOCK, journal: { size: 3 } })
    for (let offset = 0; offset < 5; offset++) await small.fetch(get(`/core/users?offset=${offset}`))
    expect(small.journal.find().map((entry) => [entry.id, entry.url.slice(-1)])).toEqual([
      [3, '2'],
      [4, '3'],
      [5, '4'],
    ])
    // Once the ring is full, entries are reused: each must still show its own request.
    const ring = createSimulator({ seed: 1, clock: CLOCK, journal: { size: 2 } })
    for (let i = 0; i < 7; i++) {
      const request = post('/admin/api/v1.2/users', { username: `ring.${i}`, email: `ring.${i}@example.com`, password: 'long-enough' })
      if (i % 2 === 0) request.headers.set('x-trace', `trace-${i}`)
      await ring.fetch(request)
    }
    await ring.fetch(get('/core/users?limit=1'))
    expect(ring.journal.find().map((entry) => [entry.id, entry.method, entry.path, entry.status, entry.requestHeaders['x-trace'], entry.requestBody])).toEqual([
      [7, 'POST', '/admin/api/v1.2/users', 201, 'trace-6', { username: 'ring.6', email: 'ring.6@example.com', password: '[redacted]' }],
      [8, 'GET', '/core/users', 200, undefined, null],
    ])
    expect(ring.journal.find()[0]!.responseBody).toMatchObject({ username: 'ring.6', status: 'pending' })
    const off = createSimulator({ seed: 1, clock: CLOCK, journal: { size: 0 } })
    await off.fetch(get('/core/users'))
    expect(off.journal.capacity).toBe(0)
    expect(off.journal.find()).toEqual([])
  })

  it('cuts bodies at `bodyLimit` characters, says so, and still redacts the cut text', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK, journal: { bodyLimit: 60 } })
    await sim.fetch(post('/admin/api/v1.2/users', { password: 'long-enough-secret', username: 'cut.body', email: 'cut.body@example.com' }))
    const [entry] = sim.journal.find()
    expect(entry!.requestBody).toMatch(/^\{"password":"\[redacted\]","username":"cut\.body",.*… \[truncated: 86 characters in all\]$/)
    expect(entry!.responseBody).toMatch(/^\{"id":".{53}… \[truncated: \d{3} characters in all\]$/)
    expect(JSON.stringify(entry)).not.toContain('long-enough-secret')
  })

  it('shows the body each cached list page was sent with, before and after a write, and cuts it at `bodyLimit`', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK, journal: { size: 3 } })
    const list = async () => (await (await sim.fetch(get('/admin/api/v1.2/users?limit=2')))!.json()) as Array<{ id: string }>
    const before = await list()
    await list()
    await sim.fetch(new Request(`http://sim.test/admin/api/v1.2/users/${before[0]!.id}`, { method: 'DELETE' }))
    const after = await list()
    expect(after).not.toEqual(before)
    expect(sim.journal.find({ method: 'GET' }).map((entry) => entry.responseBody)).toEqual([before, after])
    // A slot reused by another request shows that request's body, not the page it held.
    const id = after[0]!.id
    for (let i = 0; i < 3; i++) await sim.fetch(get(`/admin/api/v1.2/users/${id}`))
    expect(sim.journal.find().map((entry) => (entry.responseBody as { id: string }).id)).toEqual([id, id, id])
    const cut = createSimulator({ seed: 1, clock: CLOCK, journal: { bodyLimit: 40 } })
    await cut.fetch(get('/admin/api/v1.2/users?limit=2'))
    expect(cut.journal.find()[0]!.responseBody).toMatch(/^\[\{"id":".{32}… \[truncated: \d{3} characters in all\]$/)
    const none = createSimulator({ seed: 1, clock: CLOCK, journal: { bodyLimit: 0 } })
    await none.fetch(get('/admin/api/v1.2/users?limit=2'))
    expect(none.journal.find()[0]!.responseBody).toBeNull()
  })

  it('journals 404 and 405 inside an area without a route, and not what no area claims', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK })
    await sim.fetch(get('/core/nothing-here'))
    await sim.fetch(new Request('http://sim.test/core/users', { method: 'DELETE' }))
    expect(sim.fetch(get('/elsewhere'))).toBeUndefined()
    expect(sim.journal.find().map(({ status, route, area }) => ({ status, route, area }))).toEqual([
      { status: 404, route: null, area: 'core' },
      { status: 405, route: null, area: 'core' },
    ])
  })

  it('refuses bad options with a ConfigError', () => {
    expect(() => createSimulator({ journal: { size: -1 } })).toThrow(ConfigError)
    expect(() => createSimulator({ journal: { bodyLimit: 1.5 } })).toThrow(/journal\.bodyLimit/)
  })
})
