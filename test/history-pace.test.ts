/**
 * Rewinding a long history shares the server (issue 43): `GET
 * /__mock/history/{n}` rebuilds in slices that let every other request in,
 * and past its share of one request answers 503 with `Retry-After`, keeping
 * what it built; `GET /__mock/bundle` is streamed as `GET /__mock/state` is,
 * never held as one text. Over HTTP against the real CLI.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, startCli } from './support/cli-server.js'

const WORLDS = 30
/** A world of 5,000 users: seeding one takes a while, so rebuilding thirty of them takes seconds on any machine. */
const BIG = { accounts: { generate: { active: 5000 } } }
/** The last world made: command 2 × WORLDS − 1 (each world made, then deleted). */
const LAST = 2 * WORLDS - 1

describe('GET /__mock/history/{n} over a long history', () => {
  let server: CliServer
  beforeAll(async () => {
    server = await startCli(['--quiet'])
    // Each world made and deleted is two commands of the default world; rebuilding one seeds a whole world again.
    for (let i = 0; i < WORLDS; i++) {
      const made = await fetch(`${server.url}/__mock/worlds`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: `w${i}`, scenario: BIG }),
      })
      expect(made.status).toBe(201)
      expect((await fetch(`${server.url}/__mock/worlds/w${i}`, { method: 'DELETE' })).status).toBe(204)
    }
  }, 60_000)
  afterAll(() => server.stop())

  it('lets other requests in while it rebuilds, and answers once rebuilt', async () => {
    const order: string[] = []
    const point = (async () => {
      let reply = await fetch(`${server.url}/__mock/history/${LAST}`)
      const refusals: Array<{ retryAfter: string | null; body: { error: string; message: string } }> = []
      while (reply.status === 503) {
        refusals.push({ retryAfter: reply.headers.get('retry-after'), body: await reply.json() })
        reply = await fetch(`${server.url}/__mock/history/${LAST}`)
      }
      order.push('history')
      return { reply, refusals }
    })()
    // The rebuild has begun (a scratch world is made first, then the commands applied).
    await new Promise((resolve) => setTimeout(resolve, 300))
    const health = await fetch(`${server.url}/__mock/health`)
    order.push('health')
    expect(health.status).toBe(200)
    const { reply, refusals } = await point
    expect(order).toEqual(['health', 'history'])
    expect(reply.status).toBe(200)
    const body = await reply.json()
    expect(body.command).toMatchObject({ number: LAST, method: 'POST', path: '/__mock/worlds' })
    // Thirty worlds of 5,000 users take more than a request's share to rebuild: at least one 503 on the way.
    expect(refusals.length).toBeGreaterThan(0)
    for (const refusal of refusals) {
      expect(refusal.retryAfter).toBe('1')
      expect(refusal.body).toMatchObject({ error: 'service_unavailable', message: expect.stringContaining('still being rebuilt') })
    }
  }, 60_000)
})

describe('GET /__mock/bundle', () => {
  it('is streamed (no Content-Length), and its digest is that of the state it ends at', async () => {
    const server = await startCli(['--quiet'])
    try {
      await fetch(`${server.url}/core/products/prod-1001`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ price: 9.5 }) })
      const reply = await fetch(`${server.url}/__mock/bundle`)
      expect(reply.status).toBe(200)
      expect(reply.headers.get('content-length')).toBeNull()
      expect(reply.headers.get('transfer-encoding')).toBe('chunked')
      const bundle = await reply.json()
      expect(bundle.commands).toHaveLength(1)
      const state = await (await fetch(`${server.url}/__mock/state`)).text()
      const digest = createHash('sha256').update(state).digest('hex')
      expect(bundle.state).toEqual({ sha256: digest, bytes: Buffer.byteLength(state) })
    } finally {
      await server.stop()
    }
  })
})
