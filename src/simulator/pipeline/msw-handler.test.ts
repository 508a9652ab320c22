import { getResponse, http, HttpResponse, passthrough } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../create-simulator.js'

// The simulator's one msw handler in a user's own msw setup: what that setup
// relies on around it must hold, on msw 2 (the lockfile's and the lowest, 2.12)
// and msw 3 (npm run test:msw3). simulator-handler.test.ts covers the handler alone.
const CLOCK = '2026-01-01T00:00:00Z'
const ORIGIN = 'http://handler.test'
const registration = (username: string) => JSON.stringify({ username, email: `${username}@example.com`, password: 'long-enough' })
const post = (path: string, body: string) => fetch(`${ORIGIN}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })

describe("the simulator in a user's setupServer", () => {
  const sim = createSimulator({ seed: 1, clock: CLOCK, baseUrls: { admin: `${ORIGIN}/admin`, core: `${ORIGIN}/core` }, areas: ['admin', 'core'] })
  const server = setupServer(...sim.handlers)
  const unhandled: string[] = []
  const record = async (request: Request) => {
    unhandled.push(`${request.method} ${request.url} ${request.body ? await request.clone().text() : ''}`.trim())
  }
  // msw 2 calls `onUnhandledRequest(request)`; msw 3 calls it `onUnhandledFrame({ frame })`.
  const onUnhandledFrame = ({ frame }: { frame: { data: { request?: Request } } }) => (frame.data.request ? record(frame.data.request) : undefined)
  beforeAll(() => server.listen({ onUnhandledRequest: record, onUnhandledFrame } as Parameters<typeof server.listen>[0]))
  afterEach(async () => {
    server.resetHandlers()
    server.events.removeAllListeners()
    unhandled.length = 0
    await sim.reset()
  })
  afterAll(() => server.close())

  it('lets a server.use() override of one of its POST routes win, with the body readable', async () => {
    await sim.ready
    const users = sim.db.users.count()
    server.use(http.post(`${ORIGIN}/admin/api/v1.2/users`, async ({ request }) => HttpResponse.json({ echoed: await request.json() }, { status: 418 })))
    const response = await post('/admin/api/v1.2/users', registration('override.one'))
    expect(response.status).toBe(418)
    expect((await response.json()).echoed.username).toBe('override.one')
    expect(sim.db.users.count()).toBe(users)
    server.resetHandlers()
    expect((await post('/admin/api/v1.2/users', registration('override.one'))).status).toBe(201)
  })

  it('still answers after a handler in front looked at the body and let the request through', async () => {
    const seen: string[] = []
    server.use(
      http.post(`${ORIGIN}/admin/*`, async ({ request }) => {
        seen.push(((await request.clone().json()) as { username: string }).username)
      }),
    )
    const response = await post('/admin/api/v1.2/users', registration('looked.at'))
    expect(response.status).toBe(201)
    expect((await response.json()).username).toBe('looked.at')
    expect(seen).toEqual(['looked.at'])
  })

  it('leaves requests outside its prefixes to msw: onUnhandledRequest sees them, body included', async () => {
    await expect(post('/elsewhere/items', '{"a":1}')).rejects.toThrow()
    await expect(fetch(`${ORIGIN}/quantum/v1/status`)).rejects.toThrow()
    expect(unhandled).toEqual([`POST ${ORIGIN}/elsewhere/items {"a":1}`, `GET ${ORIGIN}/quantum/v1/status`])
  })

  it('leaves a passthrough() override in front of it alone: the request goes to the network', async () => {
    server.use(http.get(`${ORIGIN}/core/products/:id`, () => passthrough()))
    await expect(fetch(`${ORIGIN}/core/products/prod-1001`)).rejects.toThrow()
    expect(unhandled).toEqual([])
  })

  it("reports its answers through msw's life-cycle events, with the request and a readable response", async () => {
    const events: string[] = []
    const bodies: Promise<string>[] = []
    server.events.on('request:match', ({ request }) => void events.push(`match ${request.method} ${new URL(request.url).pathname}`))
    server.events.on('response:mocked', ({ request, response }) => {
      events.push(`mocked ${request.method} ${response.status}`)
      bodies.push(response.text())
    })
    const response = await post('/admin/api/v1.2/users', registration('evented'))
    expect(response.status).toBe(201)
    const created = await response.text()
    expect(events).toEqual(['match POST /admin/api/v1.2/users', 'mocked POST 201'])
    expect(await Promise.all(bodies)).toEqual([created])
  })

  it('answers getResponse() and leaves other URLs to it as undefined', async () => {
    const answered = await getResponse(
      sim.handlers,
      new Request(`${ORIGIN}/admin/api/v1.2/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: registration('direct.call') }),
    )
    expect(answered?.status).toBe(201)
    expect((await answered!.json()).username).toBe('direct.call')
    expect(await getResponse(sim.handlers, new Request(`${ORIGIN}/elsewhere`))).toBeUndefined()
  })
})
