import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DISPATCH_MODES } from './fast-path.js'
import { type RunningServer, startServer } from './server.js'

/**
 * On the `msw` mode the routes read a request's headers from the
 * object its Fetch `Request` was made with (fetch-request.ts); what they and
 * the journal see must be what the fast path sees, Node's list values joined.
 */
describe('request headers on every dispatch mode', () => {
  const servers = new Map<string, RunningServer>()
  beforeAll(async () => {
    for (const mode of DISPATCH_MODES) servers.set(mode, await startServer({ port: 0, seed: 4, clock: '2026-01-01T00:00:00Z', dispatch: mode }))
  })
  afterAll(async () => {
    for (const server of servers.values()) await server.close()
  })

  it('reach the journal alike, a header sent twice joined as Node joins it', async () => {
    const seen = new Map<string, unknown>()
    for (const [mode, server] of servers) {
      const headers = new Headers({ 'x-trace-id': 'trace-1', accept: 'application/json' })
      headers.append('x-tag', 'a')
      headers.append('x-tag', 'b')
      const response = await fetch(`${server.url}/admin/api/v1.2/users?limit=2`, { headers })
      expect(response.status, mode).toBe(200)
      const journal = await (await fetch(`${server.url}/__mock/requests`)).json()
      const entry = (Array.isArray(journal) ? journal : (journal.entries ?? journal.requests)).at(-1)
      expect(entry.requestHeaders['x-trace-id'], mode).toBe('trace-1')
      expect(entry.requestHeaders['x-tag'], mode).toBe('a, b')
      // The sets alike; the order is the order the client sent them in, on every mode.
      seen.set(
        mode,
        Object.entries(entry.requestHeaders).filter(([name]) => name !== 'host'),
      )
    }
    for (const [mode, entries] of seen) expect(entries, mode).toEqual(seen.get('fast'))
  })

  it('name the world a request asks for by cookie, on every mode', async () => {
    for (const [mode, server] of servers) {
      const response = await fetch(`${server.url}/core/users`, { headers: { cookie: 'a=1; mock-world=nope' } })
      expect(response.status, mode).toBe(404)
      expect((await response.json()).message, mode).toContain('"nope"')
    }
  })
})
