/**
 * `GET /__mock/events` over real HTTP, on each dispatch mode of the server
 * (the stream is a `Reply.stream` on the fast path, a `ReadableStream`
 * `Response` on `direct` and `msw`): how fast an entry arrives, which world
 * a stream follows, the control token, and that a slow or vanished client
 * holds nothing: it is disconnected past the bound and the world forgets it.
 */
import type { Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DispatchMode, type RunningServer, startServer } from '../src/node/server/server.js'
import { openSocket } from './support/raw-http.js'

/** Reads Server-Sent Events off a fetch body, as the inspector does. */
class Events {
  readonly #reader: ReadableStreamDefaultReader<string>
  #text = ''

  constructor(response: Response) {
    this.#reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  }

  /** The next event named `name` whose data passes `match`, as `{ at, data }` (`at`: performance.now() when it was read). */
  async next(name: string, match: (data: any) => boolean = () => true): Promise<{ at: number; data: any }> {
    for (;;) {
      let end: number
      while ((end = this.#text.indexOf('\n\n')) !== -1) {
        const block = this.#text.slice(0, end)
        this.#text = this.#text.slice(end + 2)
        const event = /^event: (.*)$/m.exec(block)?.[1]
        const data = /^data: (.*)$/m.exec(block)?.[1]
        if (event === name && data !== undefined && match(JSON.parse(data))) return { at: performance.now(), data: JSON.parse(data) }
      }
      const { done, value } = await this.#reader.read()
      if (done) throw new Error(`the stream ended before a "${name}" event`)
      this.#text += value
    }
  }

  close(): Promise<void> {
    return this.#reader.cancel()
  }
}

/** Counts the world's listeners that streams add (journal watchers and change listeners), by wrapping both. */
function countFollowers(running: RunningServer): () => number {
  const sim = running.simulator
  let count = 0
  const wrap = <T extends (listener: any) => () => void>(subscribe: T) =>
    ((listener: unknown) => {
      count++
      const off = subscribe(listener)
      return () => {
        count--
        off()
      }
    }) as T
  const journal = sim.journal
  journal.watch = wrap(journal.watch.bind(journal))
  ;(sim as { onChange: typeof sim.onChange }).onChange = wrap(sim.onChange.bind(sim))
  return () => count
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now()
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe.each<DispatchMode>(['fast', 'msw'])('GET /__mock/events, dispatch %s', (dispatch) => {
  let running: RunningServer
  let followers: () => number
  beforeAll(async () => {
    // Whole bodies in the journal: big events, so a client that stops reading falls behind fast.
    running = await startServer({ port: 0, dispatch, seed: 1, clock: '2026-01-01T00:00:00Z', journal: { bodyLimit: 1_000_000 } })
    followers = countFollowers(running)
  })
  afterAll(async () => {
    await running?.close()
  })

  const open = async (query = '', headers: Record<string, string> = {}) => {
    const response = await fetch(`${running.url}/__mock/events${query}`, { headers })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    return new Events(response)
  }

  it('delivers each journal entry within 100 ms of the request it records', async () => {
    const events = await open()
    await events.next('hello')
    const latencies: number[] = []
    for (let i = 0; i < 10; i++) {
      const sent = performance.now()
      const answered = fetch(`${running.url}/core/products/prod-100${1 + (i % 9)}?n=${i}`)
      const { at, data } = await events.next('request', (entry) => entry.url.endsWith(`?n=${i}`))
      latencies.push(at - sent)
      expect(data).toMatchObject({ method: 'GET', path: `/core/products/prod-100${1 + (i % 9)}`, status: 200, area: 'core' })
      await answered
    }
    console.info(`[events ${dispatch}] request → its journal event: median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`)
    expect(Math.max(...latencies)).toBeLessThan(100)
    await events.close()
  })

  it('follows the world the x-mock-world header, the world query parameter or the mock-world cookie names', async () => {
    await fetch(`${running.url}/__mock/worlds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: `w-${dispatch}`, scenario: 'empty' }),
    })
    const world = `w-${dispatch}`
    for (const [query, headers] of [
      ['', { 'x-mock-world': world }],
      [`?world=${world}`, {}],
      ['', { cookie: `mock-world=${world}` }],
    ] as const) {
      const events = await open(query, headers)
      expect((await events.next('hello')).data.world).toBe(world)
      await fetch(`${running.url}/core/users`, { headers: { 'x-mock-world': world } })
      expect((await events.next('request')).data).toMatchObject({ world, path: '/core/users' })
      await events.close()
    }
    const unknown = await fetch(`${running.url}/__mock/events?world=nope`)
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ error: 'not_found', world: 'nope' })
  })

  it('disconnects a client that stops reading once it is a bound behind, and forgets it', async () => {
    await until(() => followers() === 0)
    const socket = await openSocket(running.url)
    let received = 0
    let closed = false
    socket.on('data', (chunk: Buffer) => (received += chunk.length))
    socket.once('close', () => (closed = true))
    socket.write(`GET /__mock/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    await until(() => received > 0 && followers() === 2)
    socket.pause()
    // About 22 kB an event: ~40 MB in all, far beyond the 1 MiB bound and the sockets' own buffers.
    let sent = 0
    const client = async () => {
      while (followers() > 0 && sent < 1800) {
        sent++
        await (await fetch(`${running.url}/admin/api/v1.2/users?limit=100`)).arrayBuffer()
      }
    }
    await Promise.all(Array.from({ length: 6 }, client))
    expect(followers()).toBe(0)
    socket.resume()
    await until(() => closed)
    // What reached the client is what the buffers held when it was cut off, not everything that happened.
    expect(received).toBeLessThan(sent * 22_000)
    console.info(
      `[events ${dispatch}] slow client cut off after ${sent} requests (${((sent * 22_000) / 1e6).toFixed(0)} MB of events); it had received ${(received / 1e6).toFixed(1)} MB`,
    )
  })

  it('forgets a client that goes away at once', async () => {
    await until(() => followers() === 0)
    const socket: Socket = await openSocket(running.url)
    socket.write(`GET /__mock/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    await until(() => followers() === 2)
    socket.destroy()
    await until(() => followers() === 0, 2_000)
  })
})

describe('GET /__mock/events with a control token', () => {
  it('needs the token in the Authorization header, like every control route', async () => {
    const running = await startServer({ port: 0, controlToken: 's3cret-token' })
    try {
      const refused = await fetch(`${running.url}/__mock/events`)
      expect(refused.status).toBe(401)
      const events = new Events(await fetch(`${running.url}/__mock/events`, { headers: { authorization: 'Bearer s3cret-token' } }))
      expect((await events.next('hello')).data.world).toBe('default')
      await events.close()
    } finally {
      await running.close()
    }
  })
})

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}
