import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONTROL_PREFIX } from '../simulator/simulator.js'
import { startServer, type RunningServer } from '../node/server/server.js'
import { CONTROL_PREFIX_PATH, MockServerError, normalizeServerUrl } from './mock-server.js'
import { createMockWorld, MockWorld } from './mock-world.js'

const CLOCK = '2026-01-01T00:00:00Z'
const user = (name: string) => JSON.stringify({ username: name, email: `${name}@example.com`, password: 'long-enough' })

describe('createMockWorld: a world on a simulator server, over the control API', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ port: 0, seed: 1, clock: 'system', scenario: 'default' })
  })
  afterAll(() => server.close())

  it('creates a world with its own scenario and clock, isolated from the default world and from another', async () => {
    const one = await createMockWorld(`${server.url}/`, { scenario: 'empty', clock: CLOCK })
    const two = await createMockWorld(server.url, { scenario: 'empty', clock: CLOCK })
    expect(one.worldId).not.toBe(two.worldId)
    expect((await one.fetch('/core/users', { method: 'POST', body: user('same.name') })).status).toBe(201)
    expect((await two.fetch('/core/users', { method: 'POST', body: user('same.name') })).status).toBe(201)
    expect((await (await one.fetch('/core/users')).json()).map((u: { username: string }) => u.username)).toEqual(['same.name'])
    expect((await one.state()).accounts.users.map((u) => u.username)).toEqual(['same.name'])
    const defaultUsers = (await (await fetch(`${server.url}/core/users?limit=100`)).json()) as Array<{ username: string }>
    expect(defaultUsers.some((u) => u.username === 'same.name')).toBe(false)
    expect((await one.info()).scenario).toBe('empty')
    expect(await one.delete()).toBe(true)
    expect(await one.delete()).toBe(false)
    await two.delete()
    expect(((await (await fetch(`${server.url}/__mock/worlds`)).json()) as { worlds: unknown[] }).worlds).toEqual([])
  })

  it('moves the clock, sets and clears faults, reads and clears the journal, resets and loads scenarios', async () => {
    const world = await createMockWorld(server.url, { scenario: 'empty', clock: CLOCK })
    expect(await world.clock.now()).toEqual({ now: '2026-01-01T00:00:00.000Z', fixed: true })
    expect((await world.clock.advance('2h')).now).toBe('2026-01-01T02:00:00.000Z')
    expect((await world.clock.set('2027-06-01T12:00:00Z')).now).toBe('2027-06-01T12:00:00.000Z')
    expect((await world.clock.resume()).fixed).toBe(false)
    expect((await world.clock.freeze()).fixed).toBe(true)
    expect(await world.faults.set([{ route: '/core/users', status: 503 }])).toEqual([expect.objectContaining({ route: '/core/users', status: 503, fired: 0 })])
    expect((await world.fetch('/core/users')).status).toBe(503)
    expect(await world.faults.add({ method: 'POST', status: 429 })).toHaveLength(2)
    await world.faults.clear()
    expect(await world.faults.list()).toEqual([])
    expect((await world.fetch('/core/users')).status).toBe(200)
    const since = (await world.clock.now()).now
    expect((await world.journal.find({ status: '5xx' })).map((entry) => [entry.status, entry.world])).toEqual([[503, world.worldId]])
    expect(await world.journal.find({ since: new Date(Date.parse(since) + 1) })).toEqual([])
    expect(await world.journal.find({ path: '/core/users', limit: 1 })).toHaveLength(1)
    await world.journal.clear()
    expect(await world.journal.find()).toEqual([])
    await world.fetch('/core/users', { method: 'POST', body: user('reset.me') })
    await world.reset()
    expect((await world.state()).accounts.users).toEqual([])
    expect((await world.clock.now()).now).toBe('2026-01-01T00:00:00.000Z')
    await world.loadScenario('pending-users')
    expect((await world.info()).scenario).toBe('pending-users')
    expect(await world.replaceState({ format: 1, accounts: { users: [] } })).toMatchObject({ users: 0 })
    await world.delete()
  })

  it("throws MockServerError with the server's message, and says when the server is not there", async () => {
    await expect(createMockWorld(server.url, { scenario: 'nope' })).rejects.toThrow(/POST \/__mock\/worlds answered 400, validation_failed: .*nope/)
    const world = await createMockWorld(server.url)
    const refused = await world.clock.set('yesterday').catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(MockServerError)
    expect((refused as MockServerError).status).toBe(400)
    expect((refused as MockServerError).message).toContain(`POST /__mock/clock (world "${world.worldId}") answered 400, validation_failed`)
    await world.delete()
    await expect(world.state()).rejects.toThrow(`No world "${world.worldId}"`)
    const gone = await startServer({ port: 0 })
    await gone.close()
    const nowhere = new MockWorld('w', { serverUrl: gone.url })
    await expect(nowhere.reset()).rejects.toThrow(`POST ${gone.url}/__mock/reset failed: fetch failed (ECONNREFUSED). Is the simulator server running there?`)
  })

  it('sends the control token when the server asks for one', async () => {
    const guarded = await startServer({ port: 0, controlToken: 's3cret', scenario: 'empty' })
    try {
      await expect(createMockWorld(guarded.url)).rejects.toThrow(/answered 401, unauthorized/)
      const world = await createMockWorld(guarded.url, { controlToken: 's3cret' })
      expect(await world.delete()).toBe(true)
    } finally {
      await guarded.close()
    }
  })

  it('runs the example of docs/e2e.md, imported from the package root', async () => {
    const { createMockWorld } = await import('../index.js')
    const world = await createMockWorld(server.url, { scenario: 'empty', clock: '2026-01-01T00:00:00Z' })
    await world.fetch('/core/users', { method: 'POST', body: JSON.stringify({ username: 'ada', email: 'ada@example.com', password: 'long-enough' }) })
    expect((await world.state()).accounts.users.map((u) => u.username)).toEqual(['ada'])
    await world.delete()
  })

  it('checks the server URL, and keeps the control prefix the simulator uses', () => {
    expect(CONTROL_PREFIX_PATH).toBe(CONTROL_PREFIX)
    expect(normalizeServerUrl('http://127.0.0.1:4000/mock/')).toBe('http://127.0.0.1:4000/mock')
    expect(() => normalizeServerUrl(undefined)).toThrow("mockServerUrl is not set: give the simulator server's URL (e.g. http://127.0.0.1:4000) or set MULTI_AREA_MOCK_URL.")
    expect(() => normalizeServerUrl('localhost:4000')).toThrow('must be an http: or https: URL')
    expect(() => normalizeServerUrl('nope')).toThrow('is not a URL')
  })
})
