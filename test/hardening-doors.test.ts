/**
 * Issue 43, items 4 and 8 (the smaller doors), over the real CLI: a proxied
 * area's path never climbs out of its upstream's base path, the control token
 * never goes upstream, control requests a browser marks as coming from another
 * site are refused even without `Origin`, `--allowed-host '*'` warns and does
 * not vouch for a page's `Origin`, and control answers are neither cached nor
 * sniffed. Raw sockets, because fetch would resolve the tricky paths and
 * refuse to set `Host`.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, startCli } from './support/cli-server.js'
import { type RawReply, rawExchange } from './support/raw-http.js'

const TOKEN = 'ctl-doors-token'

/** One request on its own connection, its target written as given (not normalised). */
async function send(base: string, target: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawReply> {
  const lines = [`${method} ${target} HTTP/1.1`]
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'host')) lines.push(`Host: ${new URL(base).host}`)
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`)
  lines.push('Connection: close')
  const [reply] = await rawExchange(base, `${lines.join('\r\n')}\r\n\r\n`, 1)
  if (!reply) throw new Error(`no answer to ${method} ${target}`)
  return reply
}

function expectError(reply: RawReply, status: number, code: string): void {
  expect(reply.status, reply.body.slice(0, 300)).toBe(status)
  expect(JSON.parse(reply.body)).toMatchObject({ error: code, message: expect.any(String) })
}

/** A backend that records the path and headers of each request it gets. */
interface Recorder {
  url: string
  server: Server
  seen: Array<{ url: string; headers: IncomingHttpHeaders }>
}

async function recorder(): Promise<Recorder> {
  const seen: Recorder['seen'] = []
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers })
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"upstream":true}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen }
}

describe('item 4: a proxied area never leaves its base path, and never gets the control token', () => {
  let upstream: Recorder
  let proxy: CliServer

  beforeAll(async () => {
    upstream = await recorder()
    proxy = await startCli(['--quiet', '--proxy', `admin=${upstream.url}/users-api`], 15_000, { MULTI_AREA_MOCK_CONTROL_TOKEN: TOKEN })
  })
  afterAll(async () => {
    await proxy?.stop()
    upstream?.server.closeAllConnections()
    await new Promise<void>((resolve) => upstream?.server.close(() => resolve()))
  })

  it('an encoded slash or backslash, or a segment that decodes to "." or "..", is 400 invalid_path and nothing goes upstream', async () => {
    const climbs = [
      '/admin/..%2Fbilling-internal/x',
      '/admin/..%2fbilling-internal/x',
      '/admin/a/..%2F..%2Fbilling-internal/x',
      '/admin/%2e%2e%2Fbilling-internal/x',
      '/admin/%2E%2E/billing-internal/x',
      '/admin/.%2e/billing-internal/x',
      '/admin/..%5Cbilling-internal/x',
      '/admin/..%5cbilling-internal/x',
      '/admin/users%2Fx',
      // Double-encoded: a literal `%2F` or `%2e` after one decoding, which a second decoder down the line would climb with.
      '/admin/..%252Fbilling-internal/x',
      '/admin/%252e%252e/billing-internal/x',
      '/admin/..%255Cbilling-internal/x',
      // `..;` is `..` to servers that strip path parameters (Tomcat, Jetty).
      '/admin/..;/billing-internal/x',
      '/admin/..%3B/billing-internal/x',
    ]
    for (const target of climbs) {
      const reply = await send(proxy.url, `${target}?q=1`)
      expectError(reply, 400, 'invalid_path')
    }
    expect(upstream.seen.map((seen) => seen.url)).toEqual([])
  })

  it('ordinary paths still go upstream under the base path, encoded characters and query kept', async () => {
    upstream.seen.length = 0
    for (const target of ['/admin/api/v1.2/users?limit=5', '/admin/api/v1.2/users/a%20b', '/admin/files/report..pdf', '/admin/api/v1.2/users?next=%2F..%2Fx']) {
      expect((await send(proxy.url, target)).status, target).toBe(200)
    }
    expect(upstream.seen.map((seen) => seen.url)).toEqual([
      '/users-api/api/v1.2/users?limit=5',
      '/users-api/api/v1.2/users/a%20b',
      '/users-api/files/report..pdf',
      '/users-api/api/v1.2/users?next=%2F..%2Fx',
    ])
  })

  it('an Authorization carrying the control token is dropped before the request goes upstream; any other is passed on', async () => {
    upstream.seen.length = 0
    expect((await send(proxy.url, '/admin/api/v1.2/users', { Authorization: `Bearer ${TOKEN}` })).status).toBe(200)
    expect((await send(proxy.url, '/admin/api/v1.2/users', { Authorization: `bearer  ${TOKEN} ` })).status).toBe(200)
    expect((await send(proxy.url, '/admin/api/v1.2/users', { Authorization: 'Bearer the-apps-own-token' })).status).toBe(200)
    expect(upstream.seen.map((seen) => seen.headers.authorization)).toEqual([undefined, undefined, 'Bearer the-apps-own-token'])
  })
})

describe('item 8: control requests a browser marks as from another site are refused, with or without Origin', () => {
  let server: CliServer

  beforeAll(async () => {
    server = await startCli(['--quiet', '--clock', '2026-01-01T00:00:00Z'])
    // One command in the history, so /__mock/history/1 has something to rebuild.
    expect((await fetch(`${server.url}/__mock/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(200)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('Sec-Fetch-Site: cross-site or same-site without Origin (an <img> or a link on some page) is 403 site_not_allowed on the control API', async () => {
    for (const site of ['cross-site', 'same-site', 'Cross-Site']) {
      for (const path of ['/__mock/history/1', '/__mock/state', '/__mock/requests']) {
        expectError(await send(server.url, path, { 'Sec-Fetch-Site': site }), 403, 'site_not_allowed')
      }
    }
  })

  it('same-origin and none (typed in the address bar) pass, as does a request without the header (curl, tests)', async () => {
    const cases: Array<Record<string, string>> = [{ 'Sec-Fetch-Site': 'same-origin' }, { 'Sec-Fetch-Site': 'none' }, {}]
    for (const headers of cases) {
      expect((await send(server.url, '/__mock/history/1', headers)).status, JSON.stringify(headers)).toBe(200)
    }
  })

  it('an allowed Origin decides for itself: a loopback page on another site may still call the control API', async () => {
    const reply = await send(server.url, '/__mock/health', { 'Sec-Fetch-Site': 'cross-site', Origin: 'http://localhost:5173' })
    expect(reply.status).toBe(200)
    expect(reply.headers['access-control-allow-origin']).toBe('http://localhost:5173')
  })

  it('the areas, the docs and the inspector page stay reachable from links and images on other sites', async () => {
    for (const path of ['/core/users?limit=1', '/__mock/ui', '/__mock/docs', '/__mock/openapi.json']) {
      expect((await send(server.url, path, { 'Sec-Fetch-Site': 'cross-site' })).status, path).toBe(200)
    }
  })
})

describe("item 8: --allowed-host '*'", () => {
  let any: CliServer
  let named: CliServer

  beforeAll(async () => {
    any = await startCli(['--quiet', '--allowed-host', '*'])
    named = await startCli(['--quiet', '--allowed-host', 'mock.test'])
  })
  afterAll(async () => {
    await any?.stop()
    await named?.stop()
  })

  it('prints a warning on stderr that the DNS rebinding defence is off', async () => {
    await expect.poll(() => any.stderr()).toMatch(/warning: --allowed-host '\*'.*DNS rebinding/)
    expect(named.stderr()).toBe('')
  })

  it('a page on a rebound name is not same-origin just because its Origin equals the Host "*" let in', async () => {
    const port = new URL(any.url).port
    const host = `rebind.attacker.example:${port}`
    const page = { Host: host, Origin: `http://${host}` }
    for (const path of ['/__mock/state', '/core/users?limit=1']) {
      const reply = await send(any.url, path, page)
      expectError(reply, 403, 'origin_not_allowed')
      expect(reply.headers['access-control-allow-origin']).toBeUndefined()
    }
    expectError(await send(any.url, '/__mock/reset', { ...page, 'Access-Control-Request-Method': 'POST' }, 'OPTIONS'), 403, 'origin_not_allowed')
    // Without Origin (a reverse proxy, curl), the host is answered: that is what "*" is for.
    expect((await send(any.url, '/core/users?limit=1', { Host: host })).status).toBe(200)
    // IP addresses and localhost still vouch for their own origin.
    const local = `localhost:${port}`
    expect((await send(any.url, '/__mock/health', { Host: local, Origin: `http://${local}` })).status).toBe(200)
  })

  it('a host allowed by name keeps the same-origin trust', async () => {
    const host = `mock.test:${new URL(named.url).port}`
    const reply = await send(named.url, '/__mock/health', { Host: host, Origin: `http://${host}` })
    expect(reply.status).toBe(200)
    expect(reply.headers['access-control-allow-origin']).toBe(`http://${host}`)
  })
})

describe('item 8: control answers are neither cached nor sniffed', () => {
  const servers: Record<string, CliServer> = {}

  beforeAll(async () => {
    servers.fast = await startCli(['--quiet'])
    servers.msw = await startCli(['--quiet', '--dispatch', 'msw'])
    servers.guarded = await startCli(['--quiet'], 15_000, { MULTI_AREA_MOCK_CONTROL_TOKEN: TOKEN })
  })
  afterAll(async () => {
    await Promise.all(Object.values(servers).map((server) => server.stop()))
  })

  function expectControlHeaders(reply: RawReply, what: string): void {
    expect(reply.headers['cache-control'], what).toBe('no-store')
    expect(reply.headers['x-content-type-options'], what).toBe('nosniff')
  }

  it('control JSON, success and error, in every dispatch mode', async () => {
    for (const mode of ['fast', 'msw']) {
      const base = servers[mode]!.url
      for (const path of ['/__mock/health', '/__mock/state', '/__mock/requests', '/__mock/no-such-route', '/__mock/history/999999']) {
        const reply = await send(base, path)
        expect(reply.headers['content-type'], `${mode} ${path}`).toMatch(/^application\/json/)
        expectControlHeaders(reply, `${mode} ${path}`)
      }
      const refused = await send(base, '/__mock/reset', { 'Content-Type': 'text/plain' }, 'POST')
      expect(refused.status).toBe(415)
      expectControlHeaders(refused, `${mode} POST /__mock/reset 415`)
    }
  })

  it('the refusals before any route: the control token, the gate', async () => {
    const base = servers.guarded!.url
    const unauthorized = await send(base, '/__mock/state')
    expectError(unauthorized, 401, 'unauthorized')
    expectControlHeaders(unauthorized, '401')
    const ok = await send(base, '/__mock/state', { Authorization: `Bearer ${TOKEN}` })
    expect(ok.status).toBe(200)
    expectControlHeaders(ok, '200 with the token')
    const refused = await send(base, '/__mock/state', { Origin: 'https://evil.example' })
    expectError(refused, 403, 'origin_not_allowed')
    expectControlHeaders(refused, '403')
  })

  it("the inspector's page, script, style and server.json", async () => {
    const base = servers.fast!.url
    for (const path of ['/__mock/ui', '/__mock/ui/inspector.js', '/__mock/ui/inspector.css', '/__mock/ui/server.json']) {
      const reply = await send(base, path)
      expect(reply.status, path).toBe(200)
      expectControlHeaders(reply, path)
    }
  })

  it('the areas are left as they are', async () => {
    const reply = await send(servers.fast!.url, '/core/users?limit=1')
    expect(reply.headers['cache-control']).toBeUndefined()
  })
})
