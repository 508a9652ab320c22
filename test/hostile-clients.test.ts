/**
 * Clients that misbehave on purpose, over raw sockets against the real CLI
 * server: too slow, too big, never finished, too many, not HTTP. Each is
 * refused with a JSON answer (D9) carrying the CORS headers, or cut off, and
 * the server keeps answering everyone else meanwhile.
 */
import { execSync } from 'node:child_process'
import type { Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, startCli } from './support/cli-server.js'
import { call } from './support/http.js'
import { openSocket, parseResponses, type RawReply, rawExchange } from './support/raw-http.js'

/** Small timeouts so the test does not wait long; the margins below stay generous. */
const HEADERS_TIMEOUT_MS = 2_000
const REQUEST_TIMEOUT_MS = 3_000

let server: CliServer
let base: string

beforeAll(async () => {
  server = await startCli(['--quiet', '--headers-timeout', `${HEADERS_TIMEOUT_MS}ms`, '--request-timeout', `${REQUEST_TIMEOUT_MS}ms`])
  base = server.url
  await call(`${base}/core/users?limit=1`) // warm, so the first answer below is not slowed by start-up work
})

afterAll(async () => {
  await server?.stop()
})

function openFileLimit(): number {
  const limit = Number(execSync('ulimit -n', { encoding: 'utf8', shell: '/bin/sh' }).trim())
  return Number.isFinite(limit) ? limit : 10_500
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A connection we drive by hand: what it received, and when it was closed. */
interface Watched {
  socket: Socket
  opened: number
  received: () => string
  closed: Promise<number>
  isClosed: () => boolean
}

async function watch(): Promise<Watched> {
  const socket = await openSocket(base)
  const opened = Date.now()
  let data = ''
  let closedAt: number | undefined
  socket.setEncoding('latin1')
  socket.on('data', (chunk: string) => (data += chunk))
  socket.on('error', () => undefined)
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => {
      closedAt = Date.now()
      resolve(closedAt - opened)
    }),
  )
  return { socket, opened, received: () => data, closed, isClosed: () => closedAt !== undefined }
}

/** Writes `piece()` every `everyMs` until the server hangs up. */
function trickle(watched: Watched, everyMs: number, piece: (index: number) => string): void {
  let index = 0
  const timer = setInterval(() => {
    if (watched.socket.destroyed || !watched.socket.writable) return clearInterval(timer)
    watched.socket.write(piece(index++))
  }, everyMs)
  void watched.closed.then(() => clearInterval(timer))
}

function onlyReply(watched: Watched): RawReply {
  const replies = parseResponses(watched.received())
  expect(replies, watched.received().slice(0, 300)).toHaveLength(1)
  return replies[0]!
}

/** `origin`: the allowed `Origin` the request carried, which the answer echoes; without one, no CORS headers. */
function expectJsonError(reply: RawReply, status: number, code: string, origin?: string): void {
  expect(reply.status).toBe(status)
  expect(reply.headers['content-type']).toMatch(/^application\/json/)
  expect(JSON.parse(reply.body)).toMatchObject({ error: code, message: expect.any(String) })
  expect(reply.headers['access-control-allow-origin']).toBe(origin)
  if (origin !== undefined) expect(reply.headers['access-control-expose-headers']).toContain('X-Total-Count')
}

async function expectAnswered(): Promise<void> {
  const reply = await call(`${base}/core/users?limit=1`)
  expect(reply.status).toBe(200)
}

describe('slow clients hit the timeouts and are dropped without hurting others', () => {
  it('slow-loris headers: 408 JSON after the headers timeout, the connection closed, others answered meanwhile', async () => {
    // Fifty clients that send a header line every 200 ms and never finish the header block.
    const lorises = await Promise.all(Array.from({ length: 50 }, () => watch()))
    for (const loris of lorises) {
      loris.socket.write(`GET /core/users HTTP/1.1\r\nHost: ${new URL(base).host}\r\n`)
      trickle(loris, 200, (index) => `X-Slow-${index}: ${'x'.repeat(10)}\r\n`)
    }
    await pause(HEADERS_TIMEOUT_MS / 4)
    await expectAnswered()
    expect(
      lorises.filter((loris) => loris.isClosed()),
      'closed before the timeout',
    ).toEqual([])

    const lifetimes = await Promise.all(lorises.map((loris) => loris.closed))
    for (const lifetime of lifetimes) {
      expect(lifetime).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100)
      expect(lifetime).toBeLessThan(HEADERS_TIMEOUT_MS + 5_000)
    }
    for (const loris of lorises) expectJsonError(onlyReply(loris), 408, 'request_timeout')
    await expectAnswered()
  })

  it('a slow body: 408 JSON after the request timeout, the connection closed, others answered meanwhile', async () => {
    const slow = await watch()
    slow.socket.write(`POST /core/users HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://localhost:5173\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`)
    trickle(slow, 200, () => ' ')
    await pause(REQUEST_TIMEOUT_MS / 4)
    await expectAnswered()
    expect(slow.isClosed()).toBe(false)

    const lifetime = await slow.closed
    expect(lifetime).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100)
    expect(lifetime).toBeLessThan(REQUEST_TIMEOUT_MS + 5_000)
    // The request was parsed, but its body never came: no Origin echo is possible without a Request either way.
    expectJsonError(onlyReply(slow), 408, 'request_timeout')
    await expectAnswered()
    expect(server.stderr()).toBe('')
  })

  it('a body that never ends is cut: 413 once past the limit, then the connection is closed', async () => {
    const endless = await watch()
    endless.socket.write(`POST /core/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`)
    const chunk = Buffer.from(`10000\r\n${'x'.repeat(0x10000)}\r\n`)
    let sent = 0
    // As fast as the server reads it, until it hangs up.
    const pump = () => {
      while (!endless.socket.destroyed && endless.socket.writable) {
        sent += 0x10000
        if (!endless.socket.write(chunk)) return void endless.socket.once('drain', pump)
      }
    }
    pump()
    const lifetime = await endless.closed
    expect(lifetime).toBeLessThan(REQUEST_TIMEOUT_MS + 5_000)
    const [reply] = parseResponses(endless.received())
    expect(reply).toBeDefined()
    expectJsonError(reply!, 413, 'payload_too_large')
    // 1 MiB read, then at most 4 MiB discarded after a 413 (docs/behaviour.md), plus what sat in buffers on the way.
    expect(sent).toBeLessThan(32 * 1024 * 1024)
    await expectAnswered()
  })
})

describe('requests Node cannot parse get a JSON answer with the CORS headers', () => {
  it('oversized headers: 431 headers_too_large, echoing the Origin', async () => {
    const [reply] = await rawExchange(base, `GET /core/users HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://localhost:5173\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, 1)
    expectJsonError(reply!, 431, 'headers_too_large', 'http://localhost:5173')
    expect(reply!.headers['access-control-allow-credentials']).toBe('true')
  })

  it.each([
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
    ['an unknown method', 'BREW /coffee HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['an unknown protocol version', 'GET /core/users HTTP/7.0\r\nHost: 127.0.0.1\r\n\r\n'],
    ['a header line without a colon', 'GET /core/users HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://localhost:5173\r\nno colon here\r\n\r\n'],
    ['NUL bytes', 'GET /core/\u0000users HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['a bad chunk size', 'POST /core/users HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
  ])('%s: 400 bad_request', async (_what, bytes) => {
    const [reply] = await rawExchange(base, bytes, 1)
    expect(reply, `no answer to ${JSON.stringify(bytes)}`).toBeDefined()
    expectJsonError(reply!, 400, 'bad_request', bytes.includes('Origin: http://localhost:5173') ? 'http://localhost:5173' : undefined)
    await expectAnswered()
  })
})

describe('an answer already made is not lost to a later client error', () => {
  it('a request that fills one 64 KiB read, then broken bytes in the same write: the request is answered whole', async () => {
    // Node reads the broken bytes in the same turn as the request; its answer, made
    // in that turn, must go out before the client error ends the connection.
    const head = (length: number) => `GET /core/users?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${length}\r\n\r\n`
    const bodyLength = 65_536 - head(99_999).length
    const request = head(bodyLength) + 'x'.repeat(bodyLength)
    expect(request).toHaveLength(65_536)
    for (let attempt = 0; attempt < 5; attempt++) {
      const client = await watch()
      client.socket.write(`${request}BOGUS / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
      await client.closed
      const [first] = parseResponses(client.received())
      expect(first?.status, client.received().slice(0, 200)).toBe(200)
      expect(JSON.parse(first!.body)).toHaveLength(1)
    }
    await expectAnswered()
  })
})

describe('many idle connections', () => {
  /**
   * As many as the issue asks for, 10,000, unless this machine's limit on open
   * files (`ulimit -n`; this process and the server need one descriptor each
   * per connection) leaves room for fewer: then as many as it allows.
   */
  const IDLE = Math.min(10_000, openFileLimit() - 500)
  let crowded: CliServer
  const sockets: Socket[] = []

  beforeAll(async () => {
    crowded = await startCli(['--quiet', '--headers-timeout', '60s', '--request-timeout', '60s'])
  })
  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await crowded?.stop()
  })

  it(`${IDLE.toLocaleString('en')} open idle connections do not stop a new client from being answered`, async () => {
    for (let opened = 0; opened < IDLE; opened += 500) {
      const batch = await Promise.all(Array.from({ length: Math.min(500, IDLE - opened) }, () => openSocket(crowded.url)))
      for (const socket of batch) socket.on('error', () => undefined)
      sockets.push(...batch)
    }
    expect(sockets.filter((socket) => !socket.destroyed)).toHaveLength(IDLE)
    const reply = await call(`${crowded.url}/core/users?limit=1`)
    expect(reply.status).toBe(200)
    // The idle ones still work too.
    const [late] = await new Promise<RawReply[]>((resolve) => {
      const socket = sockets[IDLE - 1]!
      let data = ''
      socket.setEncoding('latin1').on('data', (chunk: string) => {
        data += chunk
        if (parseResponses(data).length > 0) resolve(parseResponses(data))
      })
      socket.write('GET /__mock/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    })
    expect(late!.status).toBe(200)
    expect(sockets.filter((socket) => socket.destroyed)).toEqual([])
  }, 60_000)
})
