import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { CorsPolicy } from './cors.js'
import { HostPolicy } from './host-policy.js'
import { RequestGate } from './request-gate.js'

const HOST = '127.0.0.1:4000'

function gate(allowedHosts: string[] = [], corsOrigins: string[] = []): RequestGate {
  return new RequestGate({
    hosts: new HostPolicy(allowedHosts, '127.0.0.1'),
    cors: new CorsPolicy(corsOrigins),
    origin: `http://${HOST}`,
    isPublic: (path) => path === '/__mock/openapi.json' || (path.startsWith('/__mock/ui') && path !== '/__mock/ui/server.json'),
  })
}

function request(url: string, headers: IncomingHttpHeaders = {}): IncomingMessage {
  return { url, headers: { host: HOST, ...headers }, httpVersionMinor: 1 } as IncomingMessage
}

describe('RequestGate: Sec-Fetch-Site', () => {
  const defaults = gate()

  it('refuses a control request a browser marks cross-site or same-site when it has no Origin (an <img>, a link, a no-cors fetch)', () => {
    for (const site of ['cross-site', 'same-site', 'CROSS-SITE']) {
      for (const path of ['/__mock/history/1', '/__mock/state', '/__mock', '/__mock/ui/server.json']) {
        const verdict = defaults.check(request(path, { 'sec-fetch-site': site }))
        expect(verdict.refused?.status, `${site} ${path}`).toBe(403)
        expect(verdict.refused?.code).toBe('site_not_allowed')
        expect(verdict.cors).toEqual({})
      }
    }
  })

  it('lets same-origin, none (the address bar, a bookmark) and no header at all pass', () => {
    for (const headers of [{ 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, {}]) {
      expect(defaults.check(request('/__mock/history/1', headers)).refused, JSON.stringify(headers)).toBeUndefined()
    }
  })

  it('leaves a request with an Origin to the Origin rule: allowed passes, other is origin_not_allowed', () => {
    expect(defaults.check(request('/__mock/state', { 'sec-fetch-site': 'cross-site', origin: 'http://localhost:5173' })).refused).toBeUndefined()
    expect(defaults.check(request('/__mock/state', { 'sec-fetch-site': 'same-site', origin: 'http://localhost:5173' })).refused).toBeUndefined()
    expect(defaults.check(request('/__mock/state', { 'sec-fetch-site': 'same-site', origin: 'https://sibling.example' })).refused?.code).toBe('origin_not_allowed')
  })

  it('does not apply to the areas or the public control pages: a link or an image from another site may load them', () => {
    for (const path of ['/core/users', '/admin/api/v1.2/users', '/__mock/ui', '/__mock/ui/inspector.js', '/__mock/openapi.json']) {
      expect(defaults.check(request(path, { 'sec-fetch-site': 'cross-site' })).refused, path).toBeUndefined()
    }
  })
})

describe("RequestGate: --allowed-host '*'", () => {
  it('a Host let in only by "*" does not make its own Origin same-origin (DNS rebinding)', () => {
    const any = gate(['*'])
    const page = { host: 'rebind.attacker.example:4000', origin: 'http://rebind.attacker.example:4000' }
    const verdict = any.check({ url: '/__mock/state', headers: page, httpVersionMinor: 1 } as IncomingMessage)
    expect(verdict.refused?.code).toBe('origin_not_allowed')
    expect(verdict.cors).toEqual({})
    // Without an Origin it is answered: that is what "*" is for (a reverse proxy, a container name).
    expect(any.check({ url: '/__mock/state', headers: { host: page.host }, httpVersionMinor: 1 } as IncomingMessage).refused).toBeUndefined()
  })

  it('a Host known by name (listed, localhost, an IP address) still vouches for its own origin', () => {
    const both = gate(['*', 'mock.test'])
    for (const host of ['mock.test:4000', 'localhost:4000', '192.168.1.20:4000']) {
      const verdict = both.check({ url: '/__mock/state', headers: { host, origin: `http://${host}` }, httpVersionMinor: 1 } as IncomingMessage)
      expect(verdict.refused, host).toBeUndefined()
      expect(verdict.cors['access-control-allow-origin']).toBe(`http://${host}`)
      expect(verdict.vouchingHost).toBe(host)
    }
  })
})
