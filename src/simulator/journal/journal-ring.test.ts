import { describe, expect, it } from 'vitest'
import type { Dispatch } from '../../kernel/routing/dispatcher.js'
import type { Mount, RouteDefinition } from '../../kernel/routing/route.js'
import type { SimRequest } from '../../kernel/http/sim-request.js'
import { Journal } from './journal.js'

const mount: Mount = { area: 'admin', origin: null, prefix: '/admin', routes: [] }
const route = { method: 'POST', path: '/api/v1.2/users' } as RouteDefinition

/** The i-th request of a mixed run: every third a GET without a body, the rest POSTs with one. */
function call(i: number) {
  const post = i % 3 !== 0
  const body = post ? JSON.stringify({ username: `user.${i}`, note: 'ü'.repeat(i % 40) }) : undefined
  const request: SimRequest = {
    method: post ? 'POST' : 'GET',
    url: `http://sim.test/admin/api/v1.2/users?i=${i}`,
    headers: { get: () => null, entries: () => [['x-call', String(i)]] },
    bodyText: body,
    readText: async () => body ?? '',
  }
  const dispatch = { kind: 'route', route, params: {}, url: new URL(request.url), mount } as Dispatch
  return {
    time: Date.UTC(2026, 0, 1) + i,
    durationMs: 1,
    request,
    dispatch,
    response: { status: post ? 201 : 200, headers: {}, body: JSON.stringify({ answer: i }) },
    fault: undefined,
  }
}

describe('Journal ring', () => {
  it('keeps exactly the last `size` entries, each with its own texts, through growth, wrap-around and rebases', () => {
    // 100 slots (grown from 64), 350 entries (wrapped 2.5 times), a rebase every ~2 kB of text.
    const journal = new Journal({ size: 100, bodyLimit: 8192, world: null, rebaseAt: 2000 })
    for (let i = 0; i < 350; i++) void journal.record(call(i)) // nothing to wait for: no shared journal
    const entries = journal.find()
    expect(entries).toHaveLength(100)
    entries.forEach((entry, k) => {
      const i = 250 + k
      expect(entry).toMatchObject({
        id: i + 1,
        method: i % 3 ? 'POST' : 'GET',
        url: `http://sim.test/admin/api/v1.2/users?i=${i}`,
        status: i % 3 ? 201 : 200,
        route: '/admin/api/v1.2/users',
      })
      expect(entry.requestHeaders).toEqual({ 'x-call': String(i) })
      expect(entry.requestBody).toEqual(i % 3 ? { username: `user.${i}`, note: 'ü'.repeat(i % 40) } : null)
      expect(entry.responseBody).toEqual({ answer: i })
    })
    expect(journal.find({ method: 'GET', limit: 2 }).map((entry) => entry.id)).toEqual([346, 349])
  })

  it('starts over after clear, ids from 1', () => {
    const journal = new Journal({ size: 3, bodyLimit: 8192, world: null })
    for (let i = 0; i < 5; i++) void journal.record(call(i))
    void journal.clear()
    expect(journal.size).toBe(0)
    void journal.record(call(7))
    expect(journal.find().map((entry) => [entry.id, entry.url.slice(-3)])).toEqual([[1, 'i=7']])
  })
})
