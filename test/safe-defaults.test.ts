/**
 * Safe by default: the server stays on this machine unless told otherwise,
 * says so when it is told otherwise, and the control API can require a token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer } from '../src/node/index.js'
import { type CliServer, runCli, startCli } from './support/cli-server.js'
import { call } from './support/http.js'

const TOKEN = 'ctl-7Hq2-secret-token'

describe('--host', () => {
  it('binds 127.0.0.1 by default and prints no warning', async () => {
    const server = await startCli(['--quiet'])
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect((await call(`${server.url}/__mock/health`)).status).toBe(200)
      expect(server.stderr()).toBe('')
    } finally {
      await server.stop()
    }
  })

  it('0.0.0.0 prints one line warning that the control API is reachable from the network', async () => {
    const server = await startCli(['--quiet', '--host', '0.0.0.0'])
    try {
      await expect.poll(() => server.stderr()).toContain('\n')
      const lines = server.stderr().trimEnd().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/^multi-area-mock: warning: listening on 0\.0\.0\.0, .*control API \(\/__mock\).*--control-token/)
    } finally {
      await server.stop()
    }
  })

  it('0.0.0.0 with a control token still warns, and says the token guards it', async () => {
    const server = await startCli(['--quiet', '--host', '0.0.0.0', '--control-token', TOKEN])
    try {
      await expect.poll(() => server.stderr()).toContain('\n')
      expect(server.stderr().trimEnd().split('\n')).toEqual([expect.stringMatching(/control API.*requires the control token\.$/)])
      expect(server.stderr()).not.toContain(TOKEN)
    } finally {
      await server.stop()
    }
  })
})

describe('--control-token', () => {
  let server: CliServer
  const url = (path: string) => `${server.url}${path}`
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

  beforeAll(async () => {
    // From the environment, as a CI secret would come (so it is not in `ps` either).
    server = await startCli([], 15_000, { MULTI_AREA_MOCK_CONTROL_TOKEN: TOKEN })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it.each([
    ['no Authorization header', {}, 'unauthorized'],
    ['another scheme', { authorization: `Basic ${TOKEN}` }, 'unauthorized'],
    ['a wrong token', bearer('ctl-7Hq2-secret-tokeN'), 'invalid_token'],
    ['a prefix of the token', bearer(TOKEN.slice(0, -1)), 'invalid_token'],
    ['the token and more', bearer(`${TOKEN}x`), 'invalid_token'],
  ])('%s: every /__mock route is 401 with WWW-Authenticate: Bearer, and nothing changes', async (_what, headers, code) => {
    for (const [method, path] of [
      ['GET', '/__mock/health'],
      ['GET', '/__mock/state'],
      ['POST', '/__mock/scenarios/empty'],
      ['POST', '/__mock/reset'],
      ['DELETE', '/__mock/faults'],
    ] as const) {
      const reply = await call(url(path), { method, headers: { ...headers, origin: 'http://localhost:5173' } })
      expect(reply.status, `${method} ${path}`).toBe(401)
      expect(reply.body).toMatchObject({ error: code, message: expect.any(String) })
      expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer realm="multi-area-mock control API"/)
      expect(reply.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
      expect(reply.text).not.toContain(TOKEN.slice(4))
    }
    // The empty scenario was not loaded.
    expect((await call(url('/core/users'))).headers.get('x-total-count')).toBe('48')
  })

  it('the right token opens the control API', async () => {
    const reply = await call(url('/__mock/health'), { headers: bearer(TOKEN) })
    expect(reply.status).toBe(200)
    expect(reply.body.status).toBe('ok')
    expect((await call(url('/__mock/reset'), { method: 'POST', headers: { authorization: `bearer  ${TOKEN}` } })).status).toBe(200)
  })

  it('the areas and CORS preflights need no token', async () => {
    expect((await call(url('/core/users?limit=1'))).status).toBe(200)
    const preflight = await call(url('/__mock/state'), {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization')
  })

  it('the banner says a token is required and never shows it', () => {
    expect(server.stdout()).toMatch(/Control API \(Bearer token required\)\s+http:\/\/127\.0\.0\.1:\d+\/__mock/)
    expect(server.stdout()).not.toContain(TOKEN)
  })

  it('startServer({ controlToken }) does the same from code', async () => {
    const running = await startServer({ port: 0, controlToken: TOKEN, scenario: 'empty' })
    try {
      expect((await call(`${running.url}/__mock/health`)).status).toBe(401)
      expect((await call(`${running.url}/__mock/health`, { headers: bearer(TOKEN) })).status).toBe(200)
      expect((await call(`${running.url}/core/users`)).status).toBe(200)
    } finally {
      await running.close()
    }
  })
})

describe('bad safety flags exit non-zero with one line naming the problem', () => {
  it.each([
    [['--headers-timeout', 'soon'], /--headers-timeout.*Invalid duration "soon"/],
    [['--request-timeout', '0'], /--request-timeout.*from 1ms to 24h/],
    [['--headers-timeout', '40s', '--request-timeout', '20s'], /headers timeout \(40000 ms\) must not be longer than the request timeout \(20000 ms\)/],
    [['--control-token', 'has space'], /--control-token.*printable ASCII characters without spaces/],
  ])('serve %j', async (args, message) => {
    const { code, stderr } = await runCli(['serve', '--port', '0', ...args])
    expect(code).not.toBe(0)
    expect(stderr.split('\n')[0]).toMatch(message)
    expect(stderr).not.toMatch(/^\s+at /m)
  })
})
