/**
 * Area D's command-line options, end to end: the compiled CLI is spawned
 * (`npm run build` first) with `--jwt-secret` and `--token-ttl`.
 */
import { jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, runCli, startCli } from './support/cli-server.js'
import { call } from './support/http.js'

const CLOCK = '2026-01-01T00:00:00Z'

describe('serve --jwt-secret --token-ttl', () => {
  let server: CliServer
  beforeAll(async () => {
    server = await startCli(['--quiet', '--clock', CLOCK, '--jwt-secret', 'team-dev-secret', '--token-ttl', '15m'])
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('signs tokens with the given secret and lifetime', async () => {
    const user = (await call(`${server.url}/__mock/state`)).body.accounts.users.find((candidate: { status: string }) => candidate.status === 'active')
    const reply = await call(`${server.url}/general/auth/login`, { method: 'POST', json: { username: user.username, password: 'Passw0rd!' } })
    expect(reply.status).toBe(200)
    expect(reply.body.expires_in).toBe(900)
    const { payload } = await jwtVerify(reply.body.token, new TextEncoder().encode('team-dev-secret'), { algorithms: ['HS256'], currentDate: new Date(CLOCK) })
    expect([payload.sub, payload.exp! - payload.iat!]).toEqual([user.id, 900])
    expect(server.stdout()).not.toContain('team-dev-secret')
  })

  it('documents both options in --help', async () => {
    const { stdout } = await runCli(['serve', '--help'])
    expect(stdout).toContain('--jwt-secret <secret>')
    expect(stdout).toContain('--token-ttl <seconds>')
  })
})

describe('bad Area D options stop the start with one line', () => {
  it.each([['--token-ttl', '0'], ['--token-ttl', '1.5s'], ['--token-ttl', 'soon'], ['--token-ttl', '20000d'], ['--jwt-secret', '']])('serve %s %j', async (flag, value) => {
    const { code, stdout, stderr } = await runCli(['serve', '--port', '0', flag, value])
    expect(code).not.toBe(0)
    expect(stdout).not.toContain('listening on')
    expect(stderr).toContain(flag)
    expect(stderr.split('\n').filter((line) => /^\s+at\s/.test(line))).toEqual([])
  })
})
