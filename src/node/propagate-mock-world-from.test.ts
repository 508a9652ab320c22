import { AsyncLocalStorage } from 'node:async_hooks'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { propagateMockWorldFrom } from './propagate-mock-world-from.js'
import { type RunningServer, startServer } from './server/server.js'

/** A server that answers with the `x-mock-world` header it received (`null` without one). */
function echoServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => res.end(JSON.stringify({ world: req.headers['x-mock-world'] ?? null })))
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })))
}

const worldOf = async (url: string | Request, init?: RequestInit) => ((await (await fetch(url, init)).json()) as { world: string | null }).world

describe('propagateMockWorldFrom: the world of the request a framework is handling goes on to the fetches it makes', () => {
  const original = globalThis.fetch
  let sim: RunningServer
  let echo: { url: string; server: Server }
  let other: { url: string; server: Server }
  beforeAll(async () => {
    sim = await startServer({ port: 0, scenario: 'empty', seed: 1 })
    echo = await echoServer()
    other = await echoServer()
  })
  afterEach(() => {
    globalThis.fetch = original
  })
  afterAll(async () => {
    await sim.close()
    echo.server.close()
    other.server.close()
  })

  it("reads the header or the cookie of the incoming request from the source (Fetch Headers or Node's), only for the simulator's URLs", async () => {
    let incoming: Headers | IncomingHttpHeaders | undefined = new Headers({ 'x-mock-world': 'w-header' })
    let asked = 0
    propagateMockWorldFrom(
      () => {
        asked++
        return incoming
      },
      { mockServerUrl: echo.url },
    )
    expect(await worldOf(`${echo.url}/anything`)).toBe('w-header')
    expect(await worldOf(other.url)).toBeNull()
    expect(asked).toBe(1)

    incoming = { cookie: 'theme=dark; mock-world=w-cookie' }
    expect(await worldOf(new Request(`${echo.url}/as-request`, { method: 'POST', body: 'kept' }))).toBe('w-cookie')
    // A fetch that names its world keeps it; no world in the incoming request leaves the fetch as it is.
    expect(await worldOf(echo.url, { headers: { 'x-mock-world': 'chosen' } })).toBe('chosen')
    incoming = new Headers({ cookie: 'theme=dark' })
    expect(await worldOf(echo.url)).toBeNull()
  })

  it('leaves the fetch untouched outside a request: the source gives nothing, throws, or rejects', async () => {
    const sources = [
      () => undefined,
      async () => undefined,
      () => Promise.reject(new Error('outside a request scope')),
      () => {
        throw new Error('`headers` was called outside a request scope')
      },
    ]
    for (const source of sources) {
      globalThis.fetch = original
      propagateMockWorldFrom(source, { mockServerUrl: echo.url })
      expect(await worldOf(echo.url)).toBeNull()
    }
  })

  it('gives each concurrent request its own world, in the simulator server, with a source as Next.js has it (the request in an AsyncLocalStorage)', async () => {
    const requests = new AsyncLocalStorage<Headers>()
    propagateMockWorldFrom(async () => requests.getStore(), { mockServerUrl: sim.url })
    const [ada, grace] = [await sim.simulator.worlds.create({ scenario: 'empty' }), await sim.simulator.worlds.create({ scenario: 'empty' })]
    try {
      const create = (username: string, world: string, wait: number) =>
        requests.run(new Headers({ cookie: `mock-world=${world}` }), async () => {
          await new Promise((resolve) => setTimeout(resolve, wait))
          const created = await fetch(`${sim.url}/core/users`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username, email: `${username}@example.com`, password: 'long-enough' }),
          })
          return created.status
        })
      expect(await Promise.all([create('ada', ada.worldId!, 40), create('grace', grace.worldId!, 0)])).toEqual([201, 201])
      expect(ada.db.users.all().map((user) => user.username)).toEqual(['ada'])
      expect(grace.db.users.all().map((user) => user.username)).toEqual(['grace'])
      expect(sim.simulator.db.users.count()).toBe(0)
    } finally {
      sim.simulator.worlds.delete(ada.worldId!)
      sim.simulator.worlds.delete(grace.worldId!)
    }
  })

  it('stops when told, reads MULTI_AREA_MOCK_URL, and refuses a bad source or URL', async () => {
    const stop = propagateMockWorldFrom(() => new Headers({ 'x-mock-world': 'w-stop' }), { mockServerUrl: `${echo.url}/` })
    expect(await worldOf(echo.url)).toBe('w-stop')
    stop()
    expect(await worldOf(echo.url)).toBeNull()

    expect(() => propagateMockWorldFrom('headers' as never, { mockServerUrl: echo.url })).toThrow(
      "propagateMockWorldFrom: give a function that returns the incoming request's headers (e.g. headers from next/headers), got string.",
    )
    expect(() => propagateMockWorldFrom(() => undefined, { mockServerUrl: [] })).toThrow('propagateMockWorldFrom: mockServerUrl is an empty list')
    expect(() => propagateMockWorldFrom(() => undefined, { mockServerUrl: 'ftp://x' })).toThrow('propagateMockWorldFrom: mockServerUrl "ftp://x" must be an http: or https: URL.')
    const saved = process.env.MULTI_AREA_MOCK_URL
    delete process.env.MULTI_AREA_MOCK_URL
    try {
      expect(() => propagateMockWorldFrom(() => undefined)).toThrow('propagateMockWorldFrom: mockServerUrl is not set')
      process.env.MULTI_AREA_MOCK_URL = echo.url
      propagateMockWorldFrom(() => ({ 'x-mock-world': 'w-env' }))
      expect(await worldOf(echo.url)).toBe('w-env')
    } finally {
      if (saved === undefined) delete process.env.MULTI_AREA_MOCK_URL
      else process.env.MULTI_AREA_MOCK_URL = saved
    }
  })
})
