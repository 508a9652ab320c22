/**
 * Area D's command-line options, end to end: the compiled CLI is spawned
 * (`npm run build` first) with `--jwt-secret` (or its environment variable)
 * and `--token-ttl`, and its tokens are checked strictly over HTTP.
 */
import { decodeJwt, jwtVerify, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JWT_SECRET_ENV } from '../src/areas/general/auth/auth-settings.js'
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

  it('documents both options in --help, and the variable --jwt-secret falls back to', async () => {
    const { stdout } = await runCli(['serve', '--help'])
    expect(stdout).toContain('--jwt-secret <secret>')
    expect(stdout).toContain('--token-ttl <seconds>')
    const help = stdout.replace(/\s+/g, ' ')
    expect(help).toContain('(env: MULTI_AREA_MOCK_CONTROL_TOKEN)')
    expect(help).toMatch(/--jwt-secret <secret> HS256 secret of Area D tokens \(default: derived from the seed\) \(env: MULTI_AREA_MOCK_JWT_SECRET\)/)
  })

  describe('strict tokens on PUT /general/resources/{id} (D7)', () => {
    const secret = new TextEncoder().encode('team-dev-secret')
    const resource = async () => (await call(`${server.url}/__mock/state`)).body.general.resources[0] as { id: number; data: Record<string, unknown> }
    const put = async (token: string) => {
      const { id } = await resource()
      return call(`${server.url}/general/resources/${id}`, { method: 'PUT', json: { data: { title: 'Hijacked' } }, headers: { authorization: `Bearer ${token}` } })
    }
    const login = async () => {
      const user = (await call(`${server.url}/__mock/state`)).body.accounts.users.find((candidate: { status: string }) => candidate.status === 'active')
      return (await call(`${server.url}/general/auth/login`, { method: 'POST', json: { username: user.username, password: 'Passw0rd!' } })).body.token as string
    }
    /** The 401 every invalid token gets, and the resource left as it was. */
    const expectInvalid = async (token: string, message: string) => {
      const before = await resource()
      const reply = await put(token)
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual({ error: 'invalid_token', message })
      expect(reply.headers.get('www-authenticate')).toBe(`Bearer realm="general", error="invalid_token", error_description="${message}"`)
      expect((await resource()).data).toEqual(before.data)
    }

    it('refuses a token with padding, anything else after the signature, or a respelt last character', async () => {
      const token = await login()
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
      const respelt = `${token.slice(0, -1)}${alphabet[alphabet.indexOf(token.at(-1)!) | 1]}`
      for (const bad of [`${token}=`, `${token}==`, `${token}.`, respelt]) await expectInvalid(bad, 'The access token is malformed.')
      expect((await put(token)).status).toBe(200)
    })

    it('refuses a token whose iat is later than the simulator clock, and takes one issued at it', async () => {
      const claims = decodeJwt(await login())
      const iat = Date.parse(CLOCK) / 1000
      expect(claims.iat).toBe(iat)
      const sign = (at: number) => new SignJWT({ ...claims, iat: at, exp: at + 900 }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret)
      await expectInvalid(await sign(iat + 1), 'The access token claim iat is in the future.')
      await expectInvalid(await sign(iat + 86_400), 'The access token claim iat is in the future.')
      expect((await put(await sign(iat))).status).toBe(200)
    })
  })
})

describe(`${JWT_SECRET_ENV} stands for --jwt-secret`, () => {
  const started: CliServer[] = []
  afterAll(async () => {
    await Promise.all(started.map((server) => server.stop()))
  })
  const tokenFrom = async (args: string[], env: Record<string, string>) => {
    const server = await startCli(['--quiet', '--clock', CLOCK, ...args], 15_000, env)
    started.push(server)
    const user = (await call(`${server.url}/__mock/state`)).body.accounts.users.find((candidate: { status: string }) => candidate.status === 'active')
    const reply = await call(`${server.url}/general/auth/login`, { method: 'POST', json: { username: user.username, password: 'Passw0rd!' } })
    expect(reply.status).toBe(200)
    return { server, token: reply.body.token as string }
  }
  const signedWith = async (token: string, secret: string) =>
    jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'], currentDate: new Date(CLOCK) }).then(
      () => true,
      () => false,
    )

  it('signs with the variable when the flag is absent, and the secret is nowhere in the command line or the output', async () => {
    const { server, token } = await tokenFrom([], { [JWT_SECRET_ENV]: 'env-only-secret-7Qk' })
    expect(await signedWith(token, 'env-only-secret-7Qk')).toBe(true)
    expect(server.process.spawnargs.join(' ')).not.toContain('env-only-secret-7Qk')
    expect(server.stdout() + server.stderr()).not.toContain('env-only-secret-7Qk')
  })

  it('lets the flag win over the variable', async () => {
    const { token } = await tokenFrom(['--jwt-secret', 'flag-secret'], { [JWT_SECRET_ENV]: 'env-secret' })
    expect([await signedWith(token, 'flag-secret'), await signedWith(token, 'env-secret')]).toEqual([true, false])
  })

  it('stops the start with one line naming the variable when its value is not a valid secret', async () => {
    const failed = await startCli([], 15_000, { [JWT_SECRET_ENV]: '' }).then(
      (server) => {
        started.push(server)
        return 'started'
      },
      (error: Error) => error.message,
    )
    expect(failed).toMatch(/^CLI exited with code 1 before listening/)
    const stderr = failed.slice(failed.indexOf('stderr: ') + 'stderr: '.length)
    expect(stderr).toContain(JWT_SECRET_ENV)
    expect(stderr).toContain('--jwt-secret')
    expect(stderr.split('\n').filter((line) => /^\s+at\s/.test(line))).toEqual([])
  })
})

describe('bad Area D options stop the start with one line', () => {
  it.each([
    ['--token-ttl', '0'],
    ['--token-ttl', '1.5s'],
    ['--token-ttl', 'soon'],
    ['--token-ttl', '20000d'],
    ['--jwt-secret', ''],
  ])('serve %s %j', async (flag, value) => {
    const { code, stdout, stderr } = await runCli(['serve', '--port', '0', flag, value])
    expect(code).not.toBe(0)
    expect(stdout).not.toContain('listening on')
    expect(stderr).toContain(flag)
    expect(stderr.split('\n').filter((line) => /^\s+at\s/.test(line))).toEqual([])
  })
})
