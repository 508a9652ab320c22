/**
 * `serve --proxy <area>=<url>` (docs/proxy.md): a proxied area's requests go
 * to a real backend, here a second simulator with another seed, and come back
 * byte for byte; bodies stream both ways; faults and the journal still apply;
 * an upstream that is down, hangs or hangs up is a 502 or 504 with CORS; the
 * log and journal never show a secret.
 */
import { createHash } from 'node:crypto'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../src/node/index.js'
import { type CliServer, runCli, startCli } from './support/cli-server.js'

const CLOCK = '2026-01-01T00:00:00Z'
/** Headers that differ between any two answers (time, connection handling); everything else must be identical. */
const PER_ANSWER = new Set(['date', 'connection', 'keep-alive'])

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)))
}

function close(server: Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}

async function exchange(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Record<string, string>; bytes: Buffer }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    if (!PER_ANSWER.has(name)) headers[name] = value
  })
  return { status: response.status, headers, bytes: Buffer.from(await response.arrayBuffer()) }
}

describe('a proxied area in front of another simulator', () => {
  let upstream: RunningServer
  let proxy: CliServer

  beforeAll(async () => {
    upstream = await startServer({ port: 0, seed: 7, clock: CLOCK })
    proxy = await startCli(['--seed', '1', '--clock', CLOCK, '--proxy', `admin=${upstream.url}/admin`])
  })
  afterAll(async () => {
    await proxy?.stop()
    await upstream?.close()
  })

  it('shows the proxied area and its upstream in the banner', () => {
    expect(proxy.stdout()).toMatch(new RegExp(`A {2}User administration +${proxy.url}/admin {2}-> proxied to ${upstream.url}/admin\n`))
    expect(proxy.stdout()).toMatch(new RegExp(`B {2}Core: users, products, data ingestion +${proxy.url}/core\n`))
  })

  it('answers byte for byte as the upstream does, its status and headers included; other areas stay simulated', async () => {
    for (const path of ['/admin/api/v1.2/users?limit=3&status=active', '/admin/api/v1.2/users/no-such-user', '/admin/api/v1.2/users?page=0']) {
      const direct = await exchange(`${upstream.url}${path}`)
      const proxied = await exchange(`${proxy.url}${path}`)
      expect(proxied).toEqual(direct)
    }
    const simulated = await exchange(`${proxy.url}/core/users?limit=3`)
    const upstreamUsers = await exchange(`${upstream.url}/core/users?limit=3`)
    expect(simulated.status).toBe(200)
    expect(simulated.bytes.equals(upstreamUsers.bytes)).toBe(false)
  })

  it('sends method, query, headers and body upstream: a user created through the proxy is in the upstream', async () => {
    const created = await fetch(`${proxy.url}/admin/api/v1.2/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer proxy-test-token' },
      body: JSON.stringify({ username: 'through.proxy', email: 'through.proxy@example.com', password: 'hunter2-hunter2' }),
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: string }
    expect(upstream.simulator.db.users.findFirst((q) => q.where({ username: 'through.proxy' }))?.id).toBe(id)
    const upstreamEntry = upstream.simulator.journal.find({ method: 'POST' }).at(-1)!
    expect(upstreamEntry.requestHeaders).toMatchObject({ authorization: 'Bearer [redacted]', 'content-type': 'application/json' })
    expect(upstreamEntry.requestHeaders.host).toBe(new URL(upstream.url).host)
  })

  it('drops hop-by-hop request headers, and those the Connection header names', async () => {
    const { port } = new URL(proxy.url)
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/admin/api/v1.2/users?limit=1',
          headers: { connection: 'keep-alive, x-hop', 'x-hop': 'one-connection', te: 'trailers', 'x-kept': 'yes' },
        },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(200)
    const seen = upstream.simulator.journal.find({ method: 'GET' }).at(-1)!.requestHeaders
    expect(seen['x-kept']).toBe('yes')
    expect(seen).not.toHaveProperty('x-hop')
    expect(seen).not.toHaveProperty('te')
  })

  it('journals proxied requests, marked with the upstream and redacted like every entry', async () => {
    await fetch(`${proxy.url}/__mock/reset`, { method: 'POST' })
    await fetch(`${proxy.url}/admin/api/v1.2/users?token=query-secret`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer journal-secret' },
      body: JSON.stringify({ username: 'journaled.proxy', email: 'journaled.proxy@example.com', password: 'hunter2-journal' }),
    })
    await fetch(`${proxy.url}/core/products/prod-1001`)
    const { entries } = (await (await fetch(`${proxy.url}/__mock/requests`)).json()) as { entries: Array<Record<string, any>> }
    expect(entries).toHaveLength(2)
    expect(entries[0]).toMatchObject({
      method: 'POST',
      area: 'admin',
      route: '/admin/api/v1.2/users',
      status: 201,
      proxy: `${upstream.url}/admin`,
      requestHeaders: { authorization: 'Bearer [redacted]' },
      requestBody: { username: 'journaled.proxy', password: '[redacted]' },
      responseBody: { username: 'journaled.proxy', status: 'pending' },
    })
    expect(entries[0]!.url).toBe(`${proxy.url}/admin/api/v1.2/users?token=%5Bredacted%5D`)
    expect(entries[1]).toMatchObject({ area: 'core', proxy: null, status: 200 })
    expect(JSON.stringify(entries)).not.toMatch(/journal-secret|hunter2-journal|query-secret/)
  })

  it('applies fault rules and latency to proxied requests: a fault answers instead of the upstream', async () => {
    await fetch(`${proxy.url}/__mock/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        rules: [
          { area: 'admin', status: 503, times: 1 },
          { area: 'admin', latency: 150 },
        ],
      }),
    })
    const before = upstream.simulator.journal.size
    const faulted = await fetch(`${proxy.url}/admin/api/v1.2/users`, { headers: { origin: 'http://localhost:5173' } })
    expect(faulted.status).toBe(503)
    expect(faulted.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(((await faulted.json()) as { error: string }).error).toBe('service_unavailable')
    expect(upstream.simulator.journal.size).toBe(before)
    const started = performance.now()
    expect((await fetch(`${proxy.url}/admin/api/v1.2/users?limit=1`)).status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    expect(upstream.simulator.journal.size).toBe(before + 1)
    await fetch(`${proxy.url}/__mock/faults`, { method: 'DELETE' })
  })

  it('a proxied request naming an unknown world is refused as a simulated one is, never journaled or sent upstream in the default world', async () => {
    const before = upstream.simulator.journal.size
    const journaled = (await (await fetch(`${proxy.url}/__mock/requests`)).json()) as { entries: unknown[] }
    const simulated = await fetch(`${proxy.url}/core/users?limit=1`, { headers: { 'x-mock-world': 'no-such-world' } })
    const proxied = await fetch(`${proxy.url}/admin/api/v1.2/users?limit=1`, { headers: { 'x-mock-world': 'no-such-world' } })
    expect(proxied.status).toBe(simulated.status)
    expect(proxied.status).toBe(404)
    const [simulatedBody, proxiedBody] = (await Promise.all([simulated.json(), proxied.json()])) as Array<{ error: string; world: string; message: string }>
    expect(proxiedBody).toEqual(simulatedBody)
    expect(proxiedBody).toMatchObject({ error: 'not_found', world: 'no-such-world' })
    expect(upstream.simulator.journal.size).toBe(before)
    const after = (await (await fetch(`${proxy.url}/__mock/requests`)).json()) as { entries: unknown[] }
    expect(after.entries).toHaveLength(journaled.entries.length)
  })

  it('never logs a secret: one line per request, path only', async () => {
    await fetch(`${proxy.url}/admin/api/v1.2/users?password=log-secret-query`, { headers: { authorization: 'Bearer log-secret-token' } })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(proxy.stdout()).toMatch(new RegExp(`GET /admin/api/v1\\.2/users 200 [\\d.]+ms \\(proxied to ${new URL(upstream.url).host.replace(/\./g, '\\.')}\\)\n`))
    expect(`${proxy.stdout()}${proxy.stderr()}`).not.toMatch(/log-secret|hunter2|journal-secret|proxy-test-token/)
  })
})

describe('streaming', () => {
  const FIRST = Buffer.alloc(64 * 1024, 'a')
  const REST = Buffer.alloc(4 * 1024 * 1024, 'b')
  let release: () => void = () => undefined
  let upstreamFinished = false
  let requestSeen: (first: Buffer) => void = () => undefined
  let upstream: Server
  let proxy: RunningServer

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      if (req.method === 'POST') {
        const hash = createHash('sha256')
        req.once('data', (chunk: Buffer) => requestSeen(chunk))
        req.on('data', (chunk: Buffer) => hash.update(chunk))
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'text/plain' })
          res.end(hash.digest('hex'))
        })
        return
      }
      upstreamFinished = false
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(FIRST.length + REST.length) })
      res.write(FIRST)
      // The rest only once the client has the first bytes: the proxy must not wait for the whole body.
      void new Promise<void>((resolve) => (release = resolve)).then(() => {
        res.end(REST, () => (upstreamFinished = true))
      })
    })
    const url = await listen(upstream)
    proxy = await startServer({ port: 0, seed: 1, proxy: { core: `${url}/base` } })
  })
  afterAll(async () => {
    await proxy?.close()
    await close(upstream)
  })

  it('streams a large answer: its first bytes arrive before the upstream has finished', async () => {
    const response = await fetch(`${proxy.url}/core/download`)
    const reader = response.body!.getReader()
    const first = await reader.read()
    expect(first.value!.length).toBeGreaterThan(0)
    expect(upstreamFinished).toBe(false)
    release()
    const chunks = [Buffer.from(first.value!)]
    for (let part = await reader.read(); !part.done; part = await reader.read()) chunks.push(Buffer.from(part.value))
    const body = Buffer.concat(chunks)
    expect(body.length).toBe(FIRST.length + REST.length)
    expect(body.equals(Buffer.concat([FIRST, REST]))).toBe(true)
  })

  it('streams a large request body: the upstream reads its start before the client has sent the rest', async () => {
    const { port } = new URL(proxy.url)
    const upstreamHasStart = new Promise<Buffer>((resolve) => (requestSeen = resolve))
    const answer = new Promise<string>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/core/upload', headers: { 'content-type': 'application/octet-stream' } }, (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve(text))
      })
      req.on('error', reject)
      req.write(FIRST)
      void upstreamHasStart.then(() => req.end(REST))
    })
    expect((await upstreamHasStart).length).toBeGreaterThan(0)
    expect(await answer).toBe(createHash('sha256').update(FIRST).update(REST).digest('hex'))
  })
})

describe('an upstream that is down, hangs or hangs up', () => {
  const lines: string[] = []
  let hanging: Server
  let hangingUp: Server
  let proxy: RunningServer
  let downHost: string

  beforeAll(async () => {
    hanging = createServer(() => undefined)
    hangingUp = createServer((req) => req.socket.destroy())
    const closed = createServer()
    downHost = new URL(await listen(closed)).host
    await close(closed)
    const [slow, rude] = [await listen(hanging), await listen(hangingUp)]
    proxy = await startServer({ port: 0, seed: 1, proxyTimeout: 300, log: (line) => lines.push(line), proxy: { admin: `http://${downHost}/api`, quantum: slow, ledger: rude } })
  })
  afterAll(async () => {
    await proxy?.close()
    await close(hanging)
    await close(hangingUp)
  })

  const call = async (path: string) => {
    const response = await fetch(`${proxy.url}${path}`, { headers: { origin: 'http://localhost:5173', authorization: 'Bearer never-logged' } })
    return { status: response.status, cors: response.headers.get('access-control-allow-origin'), body: await response.json() }
  }

  it('answers 502 bad_gateway naming the upstream host when nothing listens there', async () => {
    expect(await call('/admin/api/v1.2/users')).toEqual({
      status: 502,
      cors: 'http://localhost:5173',
      body: { error: 'bad_gateway', message: `The upstream of area "admin" at ${downHost} could not be reached: the connection was refused.`, upstream: downHost },
    })
  })

  it('answers 504 gateway_timeout when the upstream stays silent for --proxy-timeout', async () => {
    const started = performance.now()
    const answer = await call('/quantum/v1/status')
    expect(answer).toMatchObject({ status: 504, cors: 'http://localhost:5173', body: { error: 'gateway_timeout', upstream: expect.stringMatching(/^127\.0\.0\.1:\d+$/) } })
    expect(answer.body.message).toMatch(/did not answer within 300 ms\.$/)
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
  })

  it('answers 502 when the upstream closes the connection without an answer', async () => {
    expect(await call('/ledger/v1/status')).toMatchObject({
      status: 502,
      cors: 'http://localhost:5173',
      body: { error: 'bad_gateway', message: expect.stringContaining('the connection was closed before an answer') },
    })
  })

  it('logs one line each, without the Authorization header', () => {
    expect(lines.filter((line) => line.includes('proxied to'))).toHaveLength(3)
    expect(lines.join('\n')).not.toContain('never-logged')
    expect(proxy.simulator.journal.find({ area: 'admin' })[0]).toMatchObject({
      status: 502,
      proxy: `http://${downHost}/api`,
      requestHeaders: { authorization: 'Bearer [redacted]' },
    })
  })
})

describe('bad --proxy values', () => {
  it('refuses an unknown area or a URL that is not http(s), before listening', async () => {
    expect(await runCli(['serve', '--port', '0', '--proxy', 'nowhere=http://127.0.0.1:1'])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/unknown area "nowhere": expected one of admin, core, quantum, general, ledger/),
    })
    expect(await runCli(['serve', '--port', '0', '--proxy', 'admin=ftp://example.com'])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/expected an http\(s\) URL without query, fragment or credentials/),
    })
    await expect(startServer({ port: 0, proxy: { admin: 'https://user:pw@example.com' } })).rejects.toThrow(/without query, fragment or credentials/)
  })
})
