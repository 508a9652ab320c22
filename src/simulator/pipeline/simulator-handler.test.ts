import { getResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type RequestRouter, SimulatorHandler } from './simulator-handler.js'

// SimulatorHandler on msw's own `run` (npm run test:msw3 runs this on the lowest
// msw 2 and on msw 3 too): what msw does there must hold for our handler as for
// its `http.*` handlers.
const ORIGIN = 'http://handler.test'

/** Claims POST /echo and GET /hello; answers /echo with the JSON body it read. */
const router: RequestRouter<{ path: string }> = {
  route: (request) => {
    const { pathname } = new URL(request.url)
    return (pathname === '/echo' && request.method === 'POST') || pathname === '/hello' ? { path: pathname } : undefined
  },
  answer: async (found, request) => {
    const body = found.path === '/echo' ? { echoed: await request.json() } : { hello: true }
    return new Response(JSON.stringify(body), { status: found.path === '/echo' ? 201 : 200, headers: { 'content-type': 'application/json' } })
  },
}
const echo = (body: unknown) => new Request(`${ORIGIN}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('SimulatorHandler', () => {
  afterEach(() => void vi.restoreAllMocks())

  it('leaves run() to msw: it only fills in parse, predicate, extendResolverArgs and log', () => {
    expect(Object.hasOwn(SimulatorHandler.prototype, 'run')).toBe(false)
    expect(Object.getOwnPropertyNames(SimulatorHandler.prototype).sort()).toEqual(['constructor', 'extendResolverArgs', 'log', 'parse', 'predicate'])
  })

  it('finds the route without reading the body, and matches only what the router claims', async () => {
    const handler = new SimulatorHandler(router, 'test')
    const request = echo({ a: 1 })
    expect(await handler.parse({ request })).toEqual({ path: '/echo' })
    expect(request.bodyUsed).toBe(false)
    expect(await handler.test({ request })).toBe(true)
    expect(await handler.test({ request: new Request(`${ORIGIN}/echo`) })).toBe(false)
    expect(await handler.test({ request: new Request(`${ORIGIN}/elsewhere`) })).toBe(false)
  })

  it("answers through msw's run: the result carries the route, the answer and msw's readable clone of the request", async () => {
    const handler = new SimulatorHandler(router, 'test')
    const request = echo({ a: 1 })
    const result = await handler.run({ request, requestId: 'one' })
    expect(result?.handler).toBe(handler)
    expect(result?.parsedResult).toEqual({ path: '/echo' })
    expect(result?.response?.status).toBe(201)
    expect(await result?.response?.json()).toEqual({ echoed: { a: 1 } })
    // The answer read the request's body; msw's clone of it can still be logged.
    expect(request.bodyUsed).toBe(true)
    expect(await result?.request.text()).toBe('{"a":1}')
    expect(handler.isUsed).toBe(true)
    expect(await handler.run({ request: new Request(`${ORIGIN}/elsewhere`), requestId: 'two' })).toBeNull()
  })

  it("honours msw's once option: one answer, then it leaves requests to others", async () => {
    const handler = new SimulatorHandler(router, 'test', { once: true })
    expect((await getResponse([handler], new Request(`${ORIGIN}/hello`)))?.status).toBe(200)
    expect(await getResponse([handler], new Request(`${ORIGIN}/hello`))).toBeUndefined()
    const always = new SimulatorHandler(router, 'test')
    for (let i = 0; i < 2; i++) expect((await getResponse([always], new Request(`${ORIGIN}/hello`)))?.status).toBe(200)
  })

  it("logs an answer as msw's handlers do: one collapsed group with the request, the handler and the response", async () => {
    const groups: unknown[][] = []
    const lines: unknown[][] = []
    vi.spyOn(console, 'groupCollapsed').mockImplementation((...args) => void groups.push(args))
    vi.spyOn(console, 'log').mockImplementation((...args) => void lines.push(args))
    vi.spyOn(console, 'groupEnd').mockImplementation(() => undefined)
    const handler = new SimulatorHandler(router, 'multi-area-mock (test)')
    const result = await handler.run({ request: echo({ a: 1 }), requestId: 'log' })
    await handler.log({ request: result!.request, response: result!.response!.clone() })
    expect(groups).toHaveLength(1)
    expect(groups[0]![0]).toMatch(/^\[MSW\] \d\d:\d\d:\d\d POST http:\/\/handler\.test\/echo \(%c201%c\)$/)
    expect(groups[0]!.slice(1)).toEqual(['color:#69AB32', 'color:inherit'])
    expect(lines).toEqual([
      ['Request', { url: `${ORIGIN}/echo`, method: 'POST', headers: { 'content-type': 'application/json' }, body: { a: 1 } }],
      ['Handler:', 'multi-area-mock (test)'],
      ['Response', { status: 201, headers: { 'content-type': 'application/json' }, body: { echoed: { a: 1 } } }],
    ])
  })
})
