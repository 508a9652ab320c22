import { describe, expect, it } from 'vitest'
import { createSimulator } from '../create-simulator.js'
import { openEventStream } from './event-stream.js'

/** Reads what a stream has queued so far, as text, without waiting for more. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, events: number): Promise<string> {
  const decoder = new TextDecoder()
  let text = ''
  while ((text.match(/\n\n/g) ?? []).length < events) text += decoder.decode((await reader.read()).value)
  return text
}

const create = (sim: ReturnType<typeof createSimulator>, username: string) =>
  sim.fetch(
    new Request('http://localhost/admin/api/v1.2/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, email: `${username}@example.com`, password: 'Passw0rd!' }),
    }),
  )!

describe('openEventStream', () => {
  it('says hello, then each journal entry (redacted) and each change with the clock', async () => {
    const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z' })
    await sim.ready
    const reader = openEventStream(sim).getReader()
    expect(await drain(reader, 1)).toBe(
      'retry: 1000\nevent: hello\ndata: {"world":"default","clock":{"now":"2026-01-01T00:00:00.000Z","fixed":true},"journal":{"capacity":1000}}\n\n',
    )
    expect((await create(sim, 'ada')).status).toBe(201)
    const [change, request] = (await drain(reader, 2)).split('\n\n')
    expect(change).toBe(
      'event: change\ndata: {"cause":"request","method":"POST","url":"http://localhost/admin/api/v1.2/users","status":201,"clock":{"now":"2026-01-01T00:00:00.000Z","fixed":true}}',
    )
    expect(request).toMatch(/^event: request\ndata: \{"id":1,/)
    const entry = JSON.parse(request!.slice(request!.indexOf('data: ') + 6))
    expect(entry.requestBody).toEqual({ username: 'ada', email: 'ada@example.com', password: '[redacted]' })
    await reader.cancel()
  })

  it('disconnects a client that falls more than the bound behind, and stops following the world', async () => {
    const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z' })
    await sim.ready
    const ended: string[] = []
    const stream = openEventStream(sim, { bufferBytes: 4096, onEnd: (reason) => ended.push(reason) })
    // Nobody reads: every event stays queued until the bound is passed.
    for (let i = 0; i < 20 && ended.length === 0; i++) await create(sim, `user${i}`)
    expect(ended).toEqual(['overflow'])
    await expect(stream.getReader().read()).rejects.toThrow(/read too slowly: more than 4096 bytes/)
    // Later requests cost the stream nothing: it follows nothing any more.
    await create(sim, 'later')
    expect(ended).toEqual(['overflow'])
  })

  it('stops following the world when the client cancels, and ends with "gone" when the world is deleted', async () => {
    const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z' })
    await sim.ready
    const ended: string[] = []
    await openEventStream(sim, { onEnd: (reason) => ended.push(reason) }).cancel()
    expect(ended).toEqual(['closed'])
    const world = await sim.worlds.create({ id: 'w1' })
    let alive = true
    const reader = openEventStream(world, { heartbeatMs: 10, alive: () => alive, onEnd: (reason) => ended.push(reason) }).getReader()
    await drain(reader, 1)
    expect(await drain(reader, 1)).toBe(': ping\n\n')
    alive = false
    expect(await drain(reader, 1)).toBe('event: gone\ndata: {"world":"w1"}\n\n')
    expect(await reader.read()).toEqual({ done: true, value: undefined })
    expect(ended).toEqual(['closed', 'gone'])
  })
})

describe('GET /__mock/events in-process', () => {
  it('streams through msw (setupServer) as a ReadableStream response', async () => {
    const { setupServer } = await import('msw/node')
    const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z' })
    const server = setupServer(...sim.handlers)
    server.listen({ onUnhandledRequest: 'error' })
    try {
      const response = await fetch('http://localhost/__mock/events')
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
      const reader = response.body!.getReader()
      expect(await drain(reader, 1)).toMatch(/^retry: 1000\nevent: hello\n/)
      await fetch('http://localhost/core/products/prod-1001')
      expect(await drain(reader, 1)).toMatch(/^event: request\ndata: \{"id":1,"time":"2026-01-01T00:00:00.000Z","method":"GET"/)
      // Not awaited: msw tees every mocked response for its `response:mocked` event, and a tee's
      // source is cancelled only once both branches are (docs/inspector.md, "In-process").
      void reader.cancel()
    } finally {
      server.close()
    }
  })
})
