import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../node/server/server.js'
import type { ServerOptions } from '../node/server/server-options.js'
import { serveBanner } from './serve-banner.js'

describe('the banner of a server other machines reach (a container, 0.0.0.0)', () => {
  // Listening on loopback as every test does; the banner is then asked about the same server bound to every interface.
  const options: ServerOptions = { port: 0, allowedHosts: ['mock', '.svc.cluster.local'], corsOrigins: ['https://app.example.com'] }
  let running: RunningServer
  beforeAll(async () => {
    running = await startServer(options)
  })
  afterAll(async () => {
    await running?.close()
  })
  const banner = (host: string, given: ServerOptions = options) => serveBanner({ ...running, host, url: `http://${host}:${running.port}` }, given, { started: performance.now() })

  it('says which Host names it answers and how to add a service name', () => {
    const line = banner('0.0.0.0').find((text) => text.includes('Answers requests for the hosts'))
    expect(line).toMatch(
      /Answers requests for the hosts\s+localhost, IP addresses, mock, \.svc\.cluster\.local; a compose or Kubernetes service name needs --allowed-host <name> \(MULTI_AREA_MOCK_ALLOWED_HOST\)$/,
    )
  })

  it('says which page origins it answers and how to add one', () => {
    const line = banner('0.0.0.0').find((text) => text.includes('Answers pages from the origins'))
    expect(line).toMatch(
      /Answers pages from the origins\s+http:\/\/localhost:\*, http:\/\/127\.0\.0\.1:\*, https:\/\/app\.example\.com; an app served elsewhere needs --cors-origin <origin> \(MULTI_AREA_MOCK_CORS_ORIGIN\)$/,
    )
  })

  it('names the host it was bound to when that is a name, and says when every name or origin is let in', () => {
    const lines = banner('mock.internal', { allowedHosts: ['*'], corsOrigins: ['*'] }).join('\n')
    expect(lines).toContain('every name (--allowed-host *)')
    expect(lines).toContain('every origin (--cors-origin *)')
    expect(banner('mock.internal', {}).join('\n')).toContain('localhost, IP addresses, mock.internal;')
  })

  it('says nothing of it on loopback, where no other machine connects', () => {
    expect(banner('127.0.0.1').join('\n')).not.toContain('Answers requests for the hosts')
  })
})
