import { afterEach, describe, expect, it, vi } from 'vitest'
import { Api } from './api.js'

/** Every fetch the page makes: its URL and headers. */
function recordFetches(): Array<{ url: string; headers: Record<string, string> }> {
  const calls: Array<{ url: string; headers: Record<string, string> }> = []
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    calls.push({ url, headers: { ...(init.headers as Record<string, string>) } })
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } })
  })
  return calls
}

describe('Api: the control token goes to the control API only', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  const api = new Api(
    '/__mock',
    () => 'ctl-secret',
    () => 'default',
  )

  it('sends it to /__mock and everything under it', async () => {
    const calls = recordFetches()
    await api.get('/__mock/state')
    await api.send('POST', '/__mock/reset')
    await api.get('/__mock/history?from=3')
    await api.get('/__mock')
    expect(calls.map((call) => call.headers.authorization)).toEqual(['Bearer ctl-secret', 'Bearer ctl-secret', 'Bearer ctl-secret', 'Bearer ctl-secret'])
  })

  it("never to an area's own API (which may be proxied to a real backend), nor to a path that only looks like the control API's", async () => {
    const calls = recordFetches()
    for (const path of [
      '/admin/api/v1.2/users/u1',
      '/core/products/p1',
      '/__mockery',
      '/__mock/../admin/x',
      '/__mock/%2e%2e/admin/x',
      '//evil.example/__mock/state',
      'https://evil.example/__mock/state',
    ]) {
      await api.send('PUT', path, { status: 'active' })
    }
    expect(calls.map((call) => call.headers.authorization)).toEqual(Array(7).fill(undefined))
    // The world still travels with every request.
    expect(calls.every((call) => call.headers['x-mock-world'] === 'default')).toBe(true)
  })

  it('headers(url) for the event feed follows the same rule', () => {
    expect(api.headers('/__mock/events').authorization).toBe('Bearer ctl-secret')
    expect(api.headers('/core/users').authorization).toBeUndefined()
  })
})
