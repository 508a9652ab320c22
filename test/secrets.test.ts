/**
 * No password, token, password hash or signature ever shows: a full run over
 * HTTP with logging on (users created with passwords, logins, a token used and
 * a forged one, signed delegations and a replay, bad requests carrying
 * secrets in bodies, headers and query strings, the control token on every
 * control call), then every place a secret could surface is searched for each
 * one: the server's stdout and stderr, the request journal, the state export
 * and every answer an error produced.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import validators from '../fixtures/validators.json' with { type: 'json' }
import { type CliServer, startCli } from './support/cli-server.js'
import { call, type Reply } from './support/http.js'

const CONTROL_TOKEN = 'ctl-Secret-5v8Q'
const JWT_SECRET = 'jwt-Secret-0cX3-with-enough-length'
/** Each secret appears in the run once or more; none may appear in what is searched. */
const PASSWORDS = {
  adminUser: 'pw-Admin-Secret-1',
  coreUser: 'pw-Core-Secret-2',
  wrongLogin: 'pw-Wrong-Secret-3',
  brokenJson: 'pw-Broken-Secret-4',
  formBody: 'pw-Form-Secret-5',
  inQuery: 'pw-Query-Secret-6',
  tooShortType: 'pw-Type-Secret-7',
  truncated: 'pw-Trunc-Secret-8',
}
const signature = (n: number) => `0x${'5ec7e7'.padEnd(64, '0')}${n.toString(16).padStart(64, '0')}1b`
const SIGNATURES = [signature(1), signature(2)]
const BAD_SIGNATURE = `0x${'badc0ffee'.repeat(14)}`
const DELEGATOR = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

let server: CliServer
const errors: Reply[] = []
const control = { authorization: `Bearer ${CONTROL_TOKEN}` }

beforeAll(async () => {
  server = await startCli(['--clock', '2026-01-01T00:00:00Z', '--jwt-secret', JWT_SECRET, '--control-token', CONTROL_TOKEN])
})
afterAll(async () => {
  await server?.stop()
})

/** A request to the server; answers of 400 and more are kept to be searched. */
async function send(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Reply> {
  const reply = await call(`${server.url}${path}`, init)
  if (reply.status >= 400) errors.push(reply)
  return reply
}

const json = (body: string) => ({ method: 'POST', body, headers: { 'content-type': 'application/json' } })

it('a full run shows no secret in the log, the journal, the state or any error', async () => {
  // Users with passwords, through Areas A and B.
  const admin = await send('/admin/api/v1.2/users', { method: 'POST', json: { username: 'secret.admin', email: 'a@example.com', password: PASSWORDS.adminUser } })
  expect(admin.status).toBe(201)
  expect((await send('/core/users', { method: 'POST', json: { username: 'secret.core', email: 'c@example.com', password: PASSWORDS.coreUser } })).status).toBe(201)

  // Logins: a good one gives the token, a wrong password is 401.
  const login = await send('/general/auth/login', { method: 'POST', json: { username: 'secret.admin', password: PASSWORDS.adminUser } })
  expect(login.status).toBe(200)
  const token: string = login.body.token
  expect((await send('/general/auth/login', { method: 'POST', json: { username: 'secret.admin', password: PASSWORDS.wrongLogin } })).status).toBe(401)

  // The token used, and forged.
  const put = (authorization: string) => send('/general/resources/1', { method: 'PUT', json: { data: { title: 'changed' } }, headers: { authorization } })
  expect((await put(`Bearer ${token}`)).status).toBe(200)
  expect((await put(`Bearer ${token}x`)).status).toBe(401)
  expect((await put(`Bearer ${token.split('.').slice(0, 2).join('.')}.${'A'.repeat(43)}`)).status).toBe(401)
  expect((await put(`Basic ${token}`)).status).toBe(401)

  // Signed delegations, a replay and a signature of the wrong shape.
  const delegation = (sig: string) => ({ delegatorAddress: DELEGATOR, validatorAddress: validators[0]!.address, amount: '1000', signature: sig })
  for (const sig of SIGNATURES) expect((await send('/ledger/v1/stake/delegate', { method: 'POST', json: delegation(sig) })).status).toBe(202)
  expect((await send('/ledger/v1/stake/delegate', { method: 'POST', json: delegation(SIGNATURES[0]!) })).status).toBe(409)
  expect((await send('/ledger/v1/stake/delegate', { method: 'POST', json: delegation(BAD_SIGNATURE) })).status).toBe(400)
  expect((await send('/ledger/v1/stake/delegate', json(`{"signature":"${SIGNATURES[1]}" oops}`))).status).toBe(400)

  // Bad requests that carry secrets.
  expect((await send('/admin/api/v1.2/users', json(`{"username":"x.y.z","password":"${PASSWORDS.brokenJson}" x}`))).status).toBe(400)
  expect((await send('/general/auth/login', json(`username=secret.admin&password=${PASSWORDS.formBody}`))).status).toBe(400)
  expect((await send('/general/auth/login', json(`{"username":"secret.admin","password":"${PASSWORDS.truncated}`))).status).toBe(400)
  expect((await send('/admin/api/v1.2/users', { method: 'POST', json: { username: 'x', email: 'not-an-email', password: [PASSWORDS.tooShortType] } })).status).toBe(400)
  expect((await send('/core/users', { method: 'POST', json: { username: 'secret.admin', email: 'a@example.com', password: PASSWORDS.adminUser } })).status).toBe(409)
  const query = `password=${PASSWORDS.inQuery}&token=${token}&access_token=${token}&signature=${SIGNATURES[0]}`
  expect((await send(`/admin/api/v1.2/users?${query}`)).status).toBe(200)
  expect((await send(`/admin/api/v1.2/users?page=x&${query}`)).status).toBe(400)
  expect((await send(`/nowhere?${query}`)).status).toBe(404)
  expect((await send('/core/users', { headers: { authorization: `Bearer ${token}`, 'x-api-key': CONTROL_TOKEN, cookie: `session=${token}` } })).status).toBe(200)

  // The control API, with its token (and once without).
  expect((await send('/__mock/health')).status).toBe(401)
  const journal = await send('/__mock/requests', { headers: control })
  expect(journal.status).toBe(200)
  expect(journal.body.entries.length).toBeGreaterThan(15)
  const state = await send('/__mock/state', { headers: control })
  expect(state.status).toBe(200)
  expect(state.text).toContain('secret.admin')
  expect(errors.length).toBeGreaterThan(12)

  // Everything a person or a tool could read after such a run.
  const places: Record<string, string> = {
    stdout: server.stdout(),
    stderr: server.stderr(),
    journal: journal.text,
    state: state.text,
    ...Object.fromEntries(errors.map((reply, index) => [`error ${index + 1} (${reply.status})`, `${reply.text} ${JSON.stringify([...reply.headers])}`])),
  }
  expect(places.stdout).toMatch(/POST \/general\/auth\/login 200/) // logging was on
  const secrets = {
    CONTROL_TOKEN,
    JWT_SECRET,
    ...PASSWORDS,
    token,
    tokenSignature: token.split('.')[2]!,
    ...Object.fromEntries(SIGNATURES.map((sig, index) => [`signature ${index + 1}`, sig.slice(2, 130)])),
    badSignature: BAD_SIGNATURE.slice(2),
    passwordHash: 'pbkdf2',
  }
  const found: string[] = []
  for (const [place, text] of Object.entries(places)) {
    for (const [name, secret] of Object.entries(secrets)) {
      if (text.toLowerCase().includes(secret.toLowerCase())) found.push(`${name} in ${place}`)
    }
  }
  expect(found).toEqual([])
})
