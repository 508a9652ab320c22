import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { currentMockWorld, propagateMockWorld } from './propagate-mock-world.js'
import { type RunningServer, startServer } from './server/server.js'

/** A server that answers with the `x-mock-world` header it received (`null` without one). */
function echoServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => res.end(JSON.stringify({ world: req.headers['x-mock-world'] ?? null })))
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })))
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer(handler)
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })))
}

const worldOf = async (url: string | Request, init?: RequestInit) => ((await (await fetch(url, init)).json()) as { world: string | null }).world
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('propagateMockWorld: the world of an incoming request goes on to the fetches it makes', () => {
  const original = globalThis.fetch
  let sim: RunningServer
  let echo: { url: string; server: Server }
  let other: { url: string; server: Server }
  beforeAll(async () => {
    sim = await startServer({ port: 0, scenario: 'empty', seed: 1 })
    echo = await echoServer()
    other = await echoServer()
  })
  afterAll(async () => {
    globalThis.fetch = original
    await sim.close()
    echo.server.close()
    other.server.close()
  })

  it('node:http: the header or the cookie picks the world; concurrent requests keep their own; other URLs and no world are untouched', async () => {
    const propagate = propagateMockWorld({ mockServerUrl: echo.url })
    const app = await listen((req, res) =>
      propagate(req, res, async () => {
        await pause(Number(new URL(req.url!, 'http://x').searchParams.get('wait') ?? 0))
        const seen = { mock: await worldOf(`${echo.url}/anything`), other: await worldOf(other.url), current: currentMockWorld() ?? null }
        res.end(JSON.stringify(seen))
      }),
    )
    try {
      const ask = async (path: string, headers: Record<string, string> = {}) => (await fetch(`${app.url}${path}`, { headers })).json()
      const [slow, fast] = await Promise.all([ask('/?wait=60', { 'x-mock-world': 'w-slow' }), ask('/?wait=0', { cookie: 'theme=dark; mock-world=w-fast' })])
      expect(slow).toEqual({ mock: 'w-slow', other: null, current: 'w-slow' })
      expect(fast).toEqual({ mock: 'w-fast', other: null, current: 'w-fast' })
      expect(await ask('/')).toEqual({ mock: null, other: null, current: null })
      // Outside any request: untouched.
      expect(await worldOf(echo.url)).toBeNull()
    } finally {
      app.server.close()
    }
  })

  it('reaches the simulator server: what the app fetched is in the world, not in the default one', async () => {
    const propagate = propagateMockWorld({ mockServerUrl: sim.url })
    const world = await sim.simulator.worlds.create({ scenario: 'empty' })
    const app = await listen((req, res) =>
      propagate(req, res, async () => {
        const created = await fetch(`${sim.url}/core/users`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'from.the.app', email: 'app@example.com', password: 'long-enough' }),
        })
        res.end(String(created.status))
      }),
    )
    try {
      expect(await (await fetch(app.url, { headers: { 'x-mock-world': world.worldId! } })).text()).toBe('201')
      expect(world.db.users.all().map((user) => user.username)).toEqual(['from.the.app'])
      expect(sim.simulator.db.users.count()).toBe(0)
    } finally {
      app.server.close()
      sim.simulator.worlds.delete(world.worldId!)
    }
  })

  it('Express: app.use(propagateMockWorld(...)), and a world the app names itself is kept', async () => {
    const app = express()
    app.use(propagateMockWorld({ mockServerUrl: `${echo.url}/` }))
    app.get('/', async (_req, res) => {
      const plain = await worldOf(`${echo.url}/x`)
      const own = await worldOf(new Request(`${echo.url}/y`, { headers: { 'x-mock-world': 'chosen' } }))
      const asRequest = await fetch(new Request(`${echo.url}/z`, { method: 'POST', body: 'kept' }))
      res.json({ plain, own, asRequest: ((await asRequest.json()) as { world: string }).world })
    })
    const server = await new Promise<Server>((resolve) => {
      const listening: Server = app.listen(0, '127.0.0.1', () => resolve(listening))
    })
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
      expect(await (await fetch(url, { headers: { 'x-mock-world': 'w-express' } })).json()).toEqual({ plain: 'w-express', own: 'chosen', asRequest: 'w-express' })
    } finally {
      server.close()
    }
  })

  it("wraps a framework's hook with a Fetch Request, returning what the hook returns", async () => {
    const propagate = propagateMockWorld({ mockServerUrl: echo.url })
    const incoming = new Request('http://app.test/page', { headers: { cookie: 'mock-world=w-hook' } })
    const result = await propagate(incoming, null, async () => ({ world: await worldOf(echo.url) }))
    expect(result).toEqual({ world: 'w-hook' })
  })

  it('keeps instances apart: each tags only its own server, nested ones both apply, and fetch is wrapped once', async () => {
    const toEcho = propagateMockWorld({ mockServerUrl: echo.url })
    const wrapped = globalThis.fetch
    const toOther = propagateMockWorld({ mockServerUrl: [other.url] })
    expect(globalThis.fetch).toBe(wrapped)
    const seen = await toEcho({ headers: { 'x-mock-world': 'w-a' } }, null, () =>
      toOther({ headers: { 'x-mock-world': 'w-b' } }, null, async () => [await worldOf(echo.url), await worldOf(other.url)]),
    )
    expect(seen).toEqual(['w-a', 'w-b'])
    expect(await toOther({ headers: { 'x-mock-world': 'w-b' } }, null, () => worldOf(echo.url))).toBeNull()
  })

  it('wraps again when fetch was replaced after it, and refuses a missing or bad URL', async () => {
    const propagate = propagateMockWorld({ mockServerUrl: echo.url })
    const replaced: typeof fetch = (input, init) => original(input, init)
    globalThis.fetch = replaced
    expect(await propagate({ headers: { 'x-mock-world': 'w-late' } }, null, () => worldOf(echo.url))).toBe('w-late')
    expect(() => propagateMockWorld({ mockServerUrl: [] })).toThrow('propagateMockWorld: mockServerUrl is an empty list')
    expect(() => propagateMockWorld({ mockServerUrl: 'ftp://x' })).toThrow('propagateMockWorld: mockServerUrl "ftp://x" must be an http: or https: URL.')
    const saved = process.env.MULTI_AREA_MOCK_URL
    delete process.env.MULTI_AREA_MOCK_URL
    try {
      expect(() => propagateMockWorld()).toThrow('propagateMockWorld: mockServerUrl is not set')
      process.env.MULTI_AREA_MOCK_URL = echo.url
      expect(await propagateMockWorld()({ headers: { 'x-mock-world': 'w-env' } }, null, () => worldOf(echo.url))).toBe('w-env')
    } finally {
      if (saved === undefined) delete process.env.MULTI_AREA_MOCK_URL
      else process.env.MULTI_AREA_MOCK_URL = saved
    }
  })
})
