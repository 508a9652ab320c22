import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, startCli } from './support/cli-server.js'
import { call } from './support/http.js'

// Issue 43, items 8 and 9: inputs that answered 500, broke a documented bound or
// left a schema's required field out, over the real CLI server. Each request is the
// issue's; a refusal is the project's 400 and changes nothing.
describe('hardening defects (issue 43)', () => {
  let server: CliServer
  const url = (path: string) => `${server.url}${path}`
  /** A world of its own per test, so their histories and states do not mix. */
  const newWorld = async (): Promise<Record<string, string>> => {
    const created = await call(url('/__mock/worlds'), { method: 'POST', json: {} })
    expect(created.status).toBe(201)
    return { 'x-mock-world': created.body.id }
  }
  const stateOf = async (headers: Record<string, string>) => (await call(url('/__mock/state'), { headers })).body
  const putState = (headers: Record<string, string>, json: unknown) => call(url('/__mock/state'), { method: 'PUT', headers, json })

  beforeAll(async () => {
    server = await startCli(['--seed', '1', '--clock', '2026-01-01T00:00:00Z', '--quiet'])
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('POST /__mock/worlds with a token whose symbol is "?" and no token_id is a 400 at its token_id; with a token_id it is made, zero address and all', async () => {
    const token = { name: 'x', symbol: '?', decimals: 0, total_supply: '1', contract_address: '0x0000000000000000000000000000000000000000' }
    const before = (await call(url('/__mock/worlds'))).body.worlds.length
    const refused = await call(url('/__mock/worlds'), { method: 'POST', json: { scenario: { ledger: { tokens: [token] } } } })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({
      error: 'validation_failed',
      details: [{ path: 'scenario.ledger.tokens.0.token_id', message: 'is needed: the symbol "?" in lower case is no token id (1 to 64 letters, digits, ".", "_" or "-")' }],
    })
    expect((await call(url('/__mock/worlds'))).body.worlds).toHaveLength(before)
    expect(server.stderr()).not.toContain('internal error')

    const made = await call(url('/__mock/worlds'), { method: 'POST', json: { scenario: { ledger: { tokens: [{ ...token, token_id: 'q' }] } } } })
    expect(made.status).toBe(201)
    const shown = await call(url('/ledger/v1/tokens/q'), { headers: { 'x-mock-world': made.body.id } })
    expect([shown.status, shown.body]).toEqual([200, { ...token, token_id: 'q' }])
  })

  it('PUT /__mock/state with two readings of accepted 9007199254740990 is a 400, and core.ingestion stays as it was', async () => {
    const world = await newWorld()
    const document = await stateOf(world)
    const readings = [
      { sensor_id: 'a', accepted: 9007199254740990, points: [] },
      { sensor_id: 'b', accepted: 9007199254740990, points: [] },
    ]
    const reply = await putState(world, { ...document, core: { products: document.core.products, readings } })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({
      error: 'validation_failed',
      details: [{ path: 'core.readings.1.accepted', message: 'makes the points ever accepted, over every sensor, more than 2^53 − 1 (9007199254740991)' }],
    })
    const after = await stateOf(world)
    expect(after).toEqual(document)
    expect(after.core.ingestion.accepted).toBe(0)
  })

  it('GET /__mock/history/{number}: a user whose password went to null, and back, has both before and after in the diff', async () => {
    const world = await newWorld()
    const document = await stateOf(world)
    const user = document.accounts.users[0]
    expect(user).not.toHaveProperty('password')
    const none = structuredClone(document)
    none.accounts.users[0].password = null
    expect((await putState(world, none)).status).toBe(200)
    const back = structuredClone(document)
    back.accounts.users[0].password = 'An0ther-Passw0rd'
    expect((await putState(world, back)).status).toBe(200)

    const history = (await call(url('/__mock/history'), { headers: world })).body
    const puts = history.commands.filter((command: { method: string; path: string }) => command.method === 'PUT' && command.path === '/__mock/state')
    expect(puts).toHaveLength(2)
    const fieldsOf = async (number: number) => {
      const point = await call(url(`/__mock/history/${number}`), { headers: world })
      expect(point.status).toBe(200)
      const users = point.body.diff.collections.find((item: { collection: string }) => item.collection === 'users')
      return users.changed.find((item: { key: string }) => item.key === user.id).fields
    }
    expect(await fieldsOf(puts[0].number)).toEqual([{ name: 'password', before: null, after: null, absent: 'before' }])
    expect(await fieldsOf(puts[1].number)).toEqual([{ name: 'password', before: null, after: null, absent: 'after' }])
  })

  describe('stored password_hash iteration counts are bounded', () => {
    const WORLD_SALT = 'bXVsdGktYXJlYS1tb2NrLzE='
    const USER_SALT = 'BwcHBwcHBwcHBwcHBwcHBw=='
    const HASH = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='

    it.each([
      ['20,000,000 iterations', `pbkdf2-hmac-sha256$20000000$${WORLD_SALT}$${USER_SALT}$${HASH}`, 'must have an iteration count of 1 to 10000 (this simulator writes 1000)'],
      ['$0$', `pbkdf2-hmac-sha256$0$${WORLD_SALT}$${USER_SALT}$${HASH}`, 'must have an iteration count of 1 to 10000 (this simulator writes 1000)'],
      ['0 in the older format', `pbkdf2-sha256$0$${USER_SALT}$${HASH}`, 'must have an iteration count of 1 to 10000 (this simulator writes 1000)'],
      [
        'a salt that is no base64',
        `pbkdf2-hmac-sha256$1000$${WORLD_SALT}$a$${HASH}`,
        'must be a hash this simulator wrote: pbkdf2-hmac-sha256$<iterations>$<world salt>$<user salt>$<hash> or pbkdf2-sha256$<iterations>$<salt>$<hash> (salts and hash in base64), or "none"',
      ],
    ])('PUT /__mock/state with a password_hash of %s is a 400; nothing changes and the user still logs in at once', async (_name, hash, message) => {
      const world = await newWorld()
      const document = await stateOf(world)
      const user = document.accounts.users.find((item: { status: string }) => item.status === 'active')
      const changed = structuredClone(document)
      changed.accounts.users.find((item: { id: string }) => item.id === user.id).password_hash = hash
      const reply = await putState(world, changed)
      expect(reply.status).toBe(400)
      const index = document.accounts.users.indexOf(user)
      expect(reply.body).toMatchObject({ error: 'validation_failed', details: [{ path: `accounts.users.${index}.password_hash`, message }] })
      expect(await stateOf(world)).toEqual(document)

      const started = performance.now()
      const login = await call(url('/general/auth/login'), { method: 'POST', headers: world, json: { username: user.username, password: 'Passw0rd!' } })
      expect(login.status).toBe(200)
      expect(performance.now() - started).toBeLessThan(1000)
      expect(server.stderr()).not.toContain('internal error')
    })
  })
})
