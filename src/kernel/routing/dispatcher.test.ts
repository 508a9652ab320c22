import { describe, expect, it } from 'vitest'
import { ConfigError } from '../errors/config-error.js'
import { Dispatcher } from './dispatcher.js'
import { json } from '../http/json/json-response.js'
import type { Mount, RouteDefinition } from './route.js'

const route = (method: RouteDefinition['method'], path: string): RouteDefinition => ({ method, path, summary: path, handle: () => json({ path }) })
const mount = (area: string, prefix: string, routes: RouteDefinition[], origin: string | null = null): Mount => ({ area, origin, prefix, routes })
const request = (url: string, method = 'GET') => new Request(url, { method })

describe('Dispatcher', () => {
  const quantum = [route('GET', '/v1/status'), route('POST', '/v1/measure'), route('GET', '/v1/particles/{particleId}')]
  const ledger = [route('GET', '/v1/status'), route('GET', '/v1/tokens/{tokenId}')]

  it('finds a route under its prefix and decodes params', () => {
    const dispatcher = new Dispatcher([mount('quantum', '/quantum', quantum), mount('ledger', '/ledger', ledger)])
    const found = dispatcher.dispatch(request('http://x/ledger/v1/tokens/t%201'))
    expect(found).toMatchObject({ kind: 'route', route: { path: '/v1/tokens/{tokenId}' }, params: { tokenId: 't 1' } })
    expect(dispatcher.dispatch(request('http://x/quantum/v1/status'))).toMatchObject({ kind: 'route', route: quantum[0] })
    expect(dispatcher.dispatch(request('http://x/ledger/v1/status'))).toMatchObject({ kind: 'route', route: ledger[0] })
  })

  it('answers a path seen before from memory: same route, its own params, right after the memory fills and starts again', () => {
    const dispatcher = new Dispatcher([mount('ledger', '/ledger', ledger)])
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 1500; i++) {
        const found = dispatcher.dispatch(request(`http://x/ledger/v1/tokens/t-${i}`))
        expect(found).toMatchObject({ kind: 'route', route: ledger[1], params: { tokenId: `t-${i}` } })
      }
    }
    // Another method on a remembered path is still its own answer (405 here), and HEAD still reads like GET.
    expect(dispatcher.dispatch(request('http://x/ledger/v1/tokens/t-1', 'POST'))).toMatchObject({ kind: 'error', error: { status: 405 } })
    expect(dispatcher.dispatch(request('http://x/ledger/v1/tokens/t-1', 'HEAD'))).toMatchObject({ kind: 'route', route: ledger[1], params: { tokenId: 't-1' } })
    const again = dispatcher.dispatch(request('http://x/ledger/v1/tokens/t-1'))
    expect(again?.kind === 'route' && Object.isFrozen(again.params)).toBe(true)
  })

  it('answers HEAD like GET', () => {
    const dispatcher = new Dispatcher([mount('ledger', '/ledger', ledger)])
    expect(dispatcher.dispatch(request('http://x/ledger/v1/status', 'HEAD'))).toMatchObject({ kind: 'route', route: ledger[0] })
  })

  it('treats a trailing slash as another URL: 404 suggesting the route without it, also at the root (regression found by the fuzzer: rou3 ignored it, the document does not)', () => {
    const dispatcher = new Dispatcher([mount('quantum', '/quantum', quantum), mount('ledger', '', ledger)])
    for (const [url, method] of [
      ['http://x/quantum/v1/status/', 'GET'],
      ['http://x/quantum/v1/particles/p1/', 'GET'],
      ['http://x/quantum/v1/measure/', 'PUT'],
    ] as const) {
      const found = dispatcher.dispatch(request(url, method))
      expect(found?.kind, url).toBe('error')
      expect(found?.kind === 'error' && found.error).toMatchObject({ status: 404, code: 'not_found' })
    }
    const typo = dispatcher.dispatch(request('http://x/quantum/v1/status/'))
    expect(typo?.kind === 'error' && typo.error.extra).toMatchObject({ suggestion: 'GET /quantum/v1/status' })
    expect(dispatcher.dispatch(request('http://x/v1/status/'))).toBeUndefined()
    expect(dispatcher.dispatch(request('http://x/v1/status'))?.kind).toBe('route')
  })

  it('leaves URLs outside every prefix alone', () => {
    const dispatcher = new Dispatcher([mount('ledger', '/ledger', ledger)])
    expect(dispatcher.dispatch(request('http://x/ledgers/v1/status'))).toBeUndefined()
    expect(dispatcher.dispatch(request('http://x/v1/status'))).toBeUndefined()
  })

  it('answers 405 with Allow for a known path and 404 with a suggestion for an unknown one', () => {
    const dispatcher = new Dispatcher([mount('quantum', '/quantum', quantum)])
    const wrongMethod = dispatcher.dispatch(request('http://x/quantum/v1/measure'))
    expect(wrongMethod).toMatchObject({ kind: 'error', error: { status: 405, code: 'method_not_allowed', headers: { allow: 'POST' } } })
    const unknown = dispatcher.dispatch(request('http://x/quantum/v1/particle/p1'))
    expect(unknown).toMatchObject({ kind: 'error', error: { status: 404, extra: { suggestion: 'GET /quantum/v1/particles/{particleId}' } } })
  })

  it('matches an absolute base URL only on its origin', () => {
    const dispatcher = new Dispatcher([mount('ledger', '', ledger, 'https://ledger.example.com')])
    expect(dispatcher.dispatch(request('https://ledger.example.com/v1/status'))).toMatchObject({ kind: 'route' })
    expect(dispatcher.dispatch(request('https://other.example.com/v1/status'))).toBeUndefined()
  })

  it('prefers the longest prefix sharing a first segment', () => {
    const dispatcher = new Dispatcher([mount('a', '/api', [route('GET', '/x')]), mount('b', '/api/b', [route('GET', '/x')])])
    const found = dispatcher.dispatch(request('http://x/api/b/x'))
    expect(found?.kind === 'route' && found.route).toBe(dispatcher.mounts[1]!.routes[0])
  })

  it('refuses two root areas that define the same route, naming both (D2)', () => {
    expect(() => new Dispatcher([mount('quantum', '', quantum), mount('ledger', '', ledger)])).toThrow(ConfigError)
    expect(() => new Dispatcher([mount('quantum', '', quantum), mount('ledger', '', ledger)])).toThrow(/GET \/v1\/status is defined by both area "quantum" and area "ledger"/)
  })

  it('serves root mounts for exact routes only, so other areas stay reachable', () => {
    const dispatcher = new Dispatcher([
      mount('core', '/core', [route('GET', '/users')]),
      mount('core', '', [route('GET', '/users')]),
      mount('admin', '/admin', [route('GET', '/x')]),
    ])
    expect(dispatcher.dispatch(request('http://x/users'))).toMatchObject({ kind: 'route' })
    expect(dispatcher.dispatch(request('http://x/admin/x'))).toMatchObject({ kind: 'route' })
    expect(dispatcher.dispatch(request('http://x/users', 'DELETE'))).toBeUndefined()
  })

  it('builds the 404 for unclaimed URLs with the closest route across areas and the given extras (D27)', () => {
    const dispatcher = new Dispatcher([mount('quantum', '/quantum', quantum), mount('ledger', '/ledger', ledger)], { areas: ['quantum', 'ledger'] })
    expect(dispatcher.notFound('GET', '/ledger/v1/token/abc')).toMatchObject({
      status: 404,
      extra: { areas: ['quantum', 'ledger'], suggestion: 'GET /ledger/v1/tokens/{tokenId}' },
    })
    expect(dispatcher.notFound('POST', '/quantum/measure').extra?.suggestion).toBe('POST /quantum/v1/measure')
    expect(dispatcher.dispatch(request('http://x/ledger/v2'))).toMatchObject({ kind: 'error', error: { extra: { areas: ['quantum', 'ledger'] } } })
  })
})
