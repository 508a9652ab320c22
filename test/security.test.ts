/**
 * The server belongs to the developer, not to every web page they visit
 * (docs/security.md, D27): each finding of the security review, tried as an
 * attacker would, over HTTP against the real CLI, in every dispatch mode and
 * through `--proxy`. Raw sockets, because fetch would resolve the tricky paths
 * and refuse to set `Host`.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, startCli } from './support/cli-server.js'
import { type RawReply, rawExchange } from './support/raw-http.js'

const TOKEN = 'ctl-security-review-token'
const CLOCK = '2026-01-01T00:00:00Z'
const EVIL = 'https://evil.example'

interface Sent {
  method?: string
  headers?: Record<string, string>
  body?: string
  /** `HTTP/1.0` to leave out Host legitimately. */
  version?: string
  /** Leave out the Host header. */
  noHost?: boolean
}

/** One request on its own connection, written byte for byte as given: the target is not normalised. */
async function send(base: string, target: string, sent: Sent = {}): Promise<RawReply> {
  const { method = 'GET', headers = {}, body, version = 'HTTP/1.1', noHost = false } = sent
  const lines = [`${method} ${target} ${version}`]
  if (!noHost && !Object.keys(headers).some((name) => name.toLowerCase() === 'host')) lines.push(`Host: ${new URL(base).host}`)
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`)
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`)
  lines.push('Connection: close')
  const [reply] = await rawExchange(base, `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`, 1)
  if (!reply) throw new Error(`no answer to ${method} ${target}`)
  return reply
}

const bearer = { authorization: `Bearer ${TOKEN}` }
const json = { 'Content-Type': 'application/json' }

/** The world as the control API shows it, with the token. */
async function state(base: string): Promise<string> {
  const reply = await send(base, '/__mock/state', { headers: bearer })
  expect(reply.status).toBe(200)
  return reply.body
}

function expectError(reply: RawReply, status: number, code: string): void {
  expect(reply.status, reply.body.slice(0, 300)).toBe(status)
  expect(reply.headers['content-type']).toMatch(/^application\/json/)
  expect(JSON.parse(reply.body)).toMatchObject({ error: code, message: expect.any(String) })
}

/** Spellings of a control path that the URL parser resolves to `/__mock/...`. */
const TRICKS = [
  '/./__mock/{p}',
  '/core/../__mock/{p}',
  '/admin/../__mock/{p}',
  '/core/%2e%2e/__mock/{p}',
  '/core/%2E%2E/__mock/{p}',
  '/core/.%2e/__mock/{p}',
  '/__mock/./{p}',
  '/__mock/x/../{p}',
  '/core\\..\\__mock\\{p}',
  '/core%5c..%5c__mock/{p}',
]

/** Control calls that read or change the world, each with the body it needs. */
const CONTROL_CALLS: Array<[method: string, path: string, body?: string]> = [
  ['GET', 'state'],
  ['GET', 'health'],
  ['GET', 'requests'],
  ['PUT', 'state', '{"format":1}'],
  ['POST', 'reset'],
  ['POST', 'scenarios/empty'],
  ['POST', 'faults', '{"status":503}'],
  ['POST', 'clock', '{"advance":"1d"}'],
  ['POST', 'worlds', '{"id":"sneaky"}'],
]

describe.each(['fast', 'msw'])('finding 1, --dispatch %s: one normalised path decides the token and the route', (mode) => {
  let server: CliServer

  beforeAll(async () => {
    server = await startCli(['--dispatch', mode, '--seed', '1', '--clock', CLOCK], 15_000, { MULTI_AREA_MOCK_CONTROL_TOKEN: TOKEN })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('refuses dot-segment, encoded-dot and backslash paths to /__mock without the token, and nothing changes', async () => {
    const before = await state(server.url)
    for (const trick of TRICKS) {
      for (const [method, path, body] of CONTROL_CALLS) {
        const target = trick.replace('{p}', path)
        const reply = await send(server.url, target, { method, headers: body === undefined ? {} : json, ...(body === undefined ? {} : { body }) })
        expect(reply.status, `${method} ${target}`).toBeGreaterThanOrEqual(400)
        expect(reply.status, `${method} ${target}`).toBeLessThan(500)
        expect(reply.body, `${method} ${target}`).not.toContain('"accounts"')
        expect(reply.body, `${method} ${target}`).not.toContain('"seed"')
      }
    }
    expectError(await send(server.url, '/core/../__mock/state'), 400, 'invalid_path')
    expect(await state(server.url)).toBe(before)
    // The log shows the path as the routes saw it; the only answers that passed are the two reads above, with the token.
    const passed = () =>
      server
        .stdout()
        .split('\n')
        .filter((line) => / 2\d\d [\d.]+ms$/.test(line))
        .map((line) => line.split(' ').slice(0, 3).join(' '))
    await expect.poll(passed).toHaveLength(2)
    expect(passed()).toEqual(['GET /__mock/state 200', 'GET /__mock/state 200'])
  })

  it('the token is asked of every spelling the route table reads as the control API', async () => {
    for (const target of ['/__mock/state', '/__mock//state', '/__mock/state?x=/../', '/__mock/worlds']) {
      expectError(await send(server.url, target), 401, 'unauthorized')
    }
    // Still answered with the token, and dot-segments stay refused even then.
    expect((await send(server.url, '/__mock/health', { headers: bearer })).status).toBe(200)
    expectError(await send(server.url, '/core/../__mock/health', { headers: bearer }), 400, 'invalid_path')
  })
})

describe('finding 2: web pages of other origins, and other host names, are refused', () => {
  let server: CliServer

  beforeAll(async () => {
    server = await startCli(['--seed', '1', '--clock', CLOCK, '--quiet'])
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('a preflight from another origin is refused without any CORS header', async () => {
    const reply = await send(server.url, '/__mock/reset', { method: 'OPTIONS', headers: { Origin: EVIL, 'Access-Control-Request-Method': 'POST' } })
    expectError(reply, 403, 'origin_not_allowed')
    expect(reply.headers['access-control-allow-origin']).toBeUndefined()
    expect(reply.headers['access-control-allow-methods']).toBeUndefined()
  })

  it('a simple cross-site request (text/plain, no preflight) cannot reset, move the clock or add faults', async () => {
    const created = await send(server.url, '/core/users', {
      method: 'POST',
      headers: json,
      body: '{"username":"kept","name":"Kept User","email":"kept@example.com","password":"long-enough"}',
    })
    expect(created.status).toBe(201)
    const before = await send(server.url, '/__mock/state')
    for (const [path, body] of [
      ['/__mock/reset', ''],
      ['/__mock/clock', '{"advance":"1d"}'],
      ['/__mock/faults', '{"status":503}'],
      ['/__mock/scenarios/empty', ''],
    ] as const) {
      const reply = await send(server.url, path, { method: 'POST', headers: { Origin: EVIL, 'Content-Type': 'text/plain' }, body })
      expectError(reply, 403, 'origin_not_allowed')
      expect(reply.headers['access-control-allow-origin']).toBeUndefined()
    }
    // An area write from that page is refused the same way.
    expectError(
      await send(server.url, '/core/users', {
        method: 'POST',
        headers: { Origin: EVIL, 'Content-Type': 'text/plain' },
        body: '{"username":"x","name":"X","email":"x@example.com","password":"long-enough"}',
      }),
      403,
      'origin_not_allowed',
    )
    expect((await send(server.url, '/__mock/state')).body).toBe(before.body)
  })

  it('a body that does not say it is JSON is refused 415, whoever sends it, and changes nothing', async () => {
    const before = await send(server.url, '/__mock/state')
    // No Content-Type at all: before, this was read as JSON.
    expectError(await send(server.url, '/__mock/clock', { method: 'POST', body: '{"advance":"1d"}' }), 415, 'unsupported_media_type')
    expectError(await send(server.url, '/__mock/faults', { method: 'POST', body: '{"status":0,"drop":true}' }), 415, 'unsupported_media_type')
    // A route that reads no body refuses a declared form or text body too.
    expectError(await send(server.url, '/__mock/reset', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' }), 415, 'unsupported_media_type')
    expectError(
      await send(server.url, '/__mock/reset', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=1' }),
      415,
      'unsupported_media_type',
    )
    expect((await send(server.url, '/__mock/state')).body).toBe(before.body)
    expect(JSON.parse((await send(server.url, '/__mock/faults')).body)).toEqual({ rules: [] })
    // Declared JSON still works, and a reset with no body at all as before.
    expect((await send(server.url, '/__mock/clock', { method: 'POST', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"advance":"1h"}' })).status).toBe(200)
    expect((await send(server.url, '/__mock/reset', { method: 'POST' })).status).toBe(200)
  })

  it("state, journal and health (whose seed gives Area D's signing secret) are not readable from another origin", async () => {
    for (const path of ['/__mock/state', '/__mock/requests', '/__mock/health', '/__mock/ui/server.json', '/core/users']) {
      const reply = await send(server.url, path, { headers: { Origin: EVIL } })
      expectError(reply, 403, 'origin_not_allowed')
      expect(reply.headers['access-control-allow-origin']).toBeUndefined()
      expect(reply.body).not.toContain('"seed"')
    }
  })

  it('a Host that is not loopback, an IP address or the bound host is refused (DNS rebinding)', async () => {
    for (const host of ['rebind.attacker.example', 'rebind.attacker.example:4000', 'localhost.attacker.example', 'x']) {
      const reply = await send(server.url, '/__mock/state', { headers: { Host: host } })
      expectError(reply, 403, 'host_not_allowed')
      expect(reply.body).not.toContain('"accounts"')
      expectError(await send(server.url, '/core/users', { headers: { Host: host } }), 403, 'host_not_allowed')
    }
    for (const host of ['localhost', 'localhost:4000', 'app.localhost:4000', '127.0.0.1:4000', '127.0.0.2', '[::1]:4000', '192.168.1.20:4000']) {
      expect((await send(server.url, '/core/users?limit=1', { headers: { Host: host } })).status, host).toBe(200)
    }
  })

  it("loopback origins on any port and the server's own are allowed, with credentials", async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080', 'https://localhost', server.url]) {
      const reply = await send(server.url, '/core/users?limit=1', { headers: { Origin: origin } })
      expect(reply.status, origin).toBe(200)
      expect(reply.headers['access-control-allow-origin']).toBe(origin)
      expect(reply.headers['access-control-allow-credentials']).toBe('true')
      const preflight = await send(server.url, '/__mock/state', { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'PUT' } })
      expect(preflight.status).toBe(204)
      expect(preflight.headers['access-control-allow-origin']).toBe(origin)
    }
    // A request without an Origin is not a CORS request: no CORS headers to give.
    expect((await send(server.url, '/core/users?limit=1')).headers['access-control-allow-origin']).toBeUndefined()
  })

  it('finding 6: an HTTP/1.1 request without Host gets a JSON 400; HTTP/1.0 may leave it out', async () => {
    expectError(await send(server.url, '/core/users', { noHost: true }), 400, 'bad_request')
    const old = await send(server.url, '/core/users?limit=1', { noHost: true, version: 'HTTP/1.0' })
    expect(old.status).toBe(200)
  })
})

describe('--cors-origin and --allowed-host open what they name, no more', () => {
  let listed: CliServer
  let any: CliServer

  beforeAll(async () => {
    listed = await startCli([
      '--quiet',
      '--cors-origin',
      'https://app.example.com',
      '--cors-origin',
      'http://Partner.Test:8080',
      '--allowed-host',
      'mock.test',
      '--allowed-host',
      '.dev.test',
    ])
    any = await startCli(['--quiet', '--cors-origin', '*'])
  })
  afterAll(async () => {
    await listed?.stop()
    await any?.stop()
  })

  it('a listed origin is allowed with credentials; others are still refused', async () => {
    for (const origin of ['https://app.example.com', 'http://partner.test:8080']) {
      const reply = await send(listed.url, '/__mock/health', { headers: { Origin: origin } })
      expect(reply.status, origin).toBe(200)
      expect(reply.headers['access-control-allow-origin']).toBe(origin)
      expect(reply.headers['access-control-allow-credentials']).toBe('true')
    }
    expectError(await send(listed.url, '/__mock/health', { headers: { Origin: 'https://app.example.com.evil.example' } }), 403, 'origin_not_allowed')
    expectError(await send(listed.url, '/__mock/health', { headers: { Origin: 'http://app.example.com' } }), 403, 'origin_not_allowed')
  })

  it('a listed host, or a name under a listed .suffix, is answered; others are not', async () => {
    for (const host of ['mock.test', 'mock.test:4000', 'dev.test', 'api.dev.test:4000']) {
      expect((await send(listed.url, '/core/users?limit=1', { headers: { Host: host } })).status, host).toBe(200)
    }
    for (const host of ['evil.mock.test', 'notdev.test', 'mock.test.evil.example']) {
      expectError(await send(listed.url, '/core/users?limit=1', { headers: { Host: host } }), 403, 'host_not_allowed')
    }
  })

  it('"*" lets every origin read, but without credentials', async () => {
    const reply = await send(any.url, '/core/users?limit=1', { headers: { Origin: EVIL } })
    expect(reply.status).toBe(200)
    expect(reply.headers['access-control-allow-origin']).toBe('*')
    expect(reply.headers['access-control-allow-credentials']).toBeUndefined()
    // Loopback origins keep their credentials.
    expect((await send(any.url, '/core/users?limit=1', { headers: { Origin: 'http://localhost:5173' } })).headers['access-control-allow-credentials']).toBe('true')
  })

  it('a malformed --cors-origin or --allowed-host stops the start with one line', async () => {
    const { runCli } = await import('./support/cli-server.js')
    for (const args of [
      ['--cors-origin', 'https://app.example.com/path'],
      ['--cors-origin', 'app.example.com'],
      ['--allowed-host', 'mock.test:4000'],
      ['--allowed-host', 'http://mock.test'],
    ]) {
      const result = await runCli(['serve', '--port', '0', ...args])
      expect(result.code, args.join(' ')).not.toBe(0)
      expect(result.stderr, args.join(' ')).toMatch(new RegExp(`^error: option '${args[0]} <\\w+>' argument .* is invalid\\. expected `))
    }
  })
})

describe("--proxy: the same gate and token, the path joined properly, the server's CORS only", () => {
  let upstream: Server
  let upstreamUrl: string
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = []
  let proxy: CliServer

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers })
      res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true' })
      res.end('{"upstream":true}')
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
    // The docs' own form: a base with no path.
    proxy = await startCli(['--quiet', '--proxy', `quantum=${upstreamUrl}`, '--control-token', TOKEN])
  })
  afterAll(async () => {
    await proxy?.stop()
    upstream?.closeAllConnections()
    await new Promise((resolve) => upstream?.close(resolve))
  })

  it('finding 3: a base URL without a path sends the request path once, not "//v1/..."', async () => {
    seen.length = 0
    expect((await send(proxy.url, '/quantum/v1/particles/p-1?x=1')).status).toBe(200)
    expect(seen.map((request) => request.url)).toEqual(['/v1/particles/p-1?x=1'])
  })

  it('a page of another origin cannot read the real backend through the proxy; the upstream never hears of it', async () => {
    seen.length = 0
    const reply = await send(proxy.url, '/quantum/v1/status', { headers: { Origin: EVIL, Cookie: 'session=real' } })
    expectError(reply, 403, 'origin_not_allowed')
    expect(reply.headers['access-control-allow-origin']).toBeUndefined()
    expectError(await send(proxy.url, '/quantum/v1/status', { headers: { Host: 'rebind.attacker.example' } }), 403, 'host_not_allowed')
    expect(seen).toEqual([])
  })

  it("proxied answers carry the server's CORS headers, never the upstream's", async () => {
    const allowed = await send(proxy.url, '/quantum/v1/status', { headers: { Origin: 'http://localhost:5173' } })
    expect(allowed.status).toBe(200)
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    const plain = await send(proxy.url, '/quantum/v1/status')
    expect(plain.status).toBe(200)
    expect(plain.headers['access-control-allow-origin']).toBeUndefined()
    expect(plain.headers['access-control-allow-credentials']).toBeUndefined()
  })

  it('the control API still needs the token, however the path is spelled, and is never proxied', async () => {
    seen.length = 0
    expectError(await send(proxy.url, '/__mock/state'), 401, 'unauthorized')
    expectError(await send(proxy.url, '/quantum/../__mock/state'), 400, 'invalid_path')
    expectError(await send(proxy.url, '/quantum/%2e%2e/__mock/state'), 400, 'invalid_path')
    expect((await send(proxy.url, '/__mock/health', { headers: bearer })).status).toBe(200)
    expect(seen).toEqual([])
  })
})

describe('a secret given badly is refused without being shown', () => {
  it('--control-token and --jwt-secret: one line naming the flag, never the value', async () => {
    const { runCli } = await import('./support/cli-server.js')
    for (const [flag, value] of [
      ['--control-token', 'has space-sekrit-7731'],
      ['--jwt-secret', `sekrit-7731${'x'.repeat(5000)}`],
    ] as const) {
      const result = await runCli(['serve', '--port', '0', flag, value])
      expect(result.code).toBe(1)
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(`option '${flag} `)])
      expect(result.stderr + result.stdout).not.toContain('sekrit-7731')
    }
  })
})
