/**
 * `serve --proxy … --record <file>` (issue 34, docs/recording.md), end to end
 * with the built CLI: a simulator with another seed stands in for the real
 * backend; a recorder in front of it records what its answers show; the file,
 * loaded with `serve --scenario <file>` and no upstream at all, answers every
 * recorded read as the upstream did (same status, same body text). The file
 * holds no password, token, Authorization or cookie value, and a recorded user
 * cannot log in until the scenario gives them a password.
 */
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, runCli, startCli } from './support/cli-server.js'

/** The upstream's frozen clock: the replay runs on the system clock, so every time it shows comes from the file. */
const UPSTREAM_CLOCK = '2025-06-01T12:00:00Z'
/** Secrets sent through the recorder: none may reach the file. */
const PASSWORD = 'recorded-password-5f1c'
const CORE_PASSWORD = 'core-password-90ab'
const BEARER = 'bearer-token-3e7d'
const COOKIE = 'cookie-value-c41f'
const JSON_HEADERS = { 'content-type': 'application/json' }

interface Answer {
  status: number
  text: string
  total: string | null
}

async function read(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })
  return { status: response.status, text: await response.text(), total: response.headers.get('x-total-count') }
}

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return read(url, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) })
}

/** SIGINT (Ctrl-C), as a developer stops the recorder; resolves with the exit code. */
async function interrupt(server: CliServer): Promise<number | null> {
  const exited = once(server.process, 'exit') as Promise<[number | null]>
  server.process.kill('SIGINT')
  const [code] = await exited
  return code
}

interface RecordedUser {
  id: string
  username: string
  password?: unknown
}

describe('serve --record in front of another simulator, replayed with no upstream', () => {
  const dir = mkdtempSync(join(tmpdir(), 'multi-area-mock-recording-'))
  const file = join(dir, 'recorded.json')
  let upstream: CliServer
  let recorder: CliServer
  let replay: CliServer | undefined
  /** The upstream's world, read before any traffic. */
  let upstreamUsers: RecordedUser[]
  let productIds: string[]
  let createdId: string
  /** Path → the upstream's answer, as the recorder passed it on: what the replay must answer. */
  const recordedReads = new Map<string, Answer>()

  beforeAll(async () => {
    upstream = await startCli(['--quiet', '--seed', '7', '--scenario', 'entangled-pairs', '--clock', UPSTREAM_CLOCK])
    const state = (await (await fetch(`${upstream.url}/__mock/state`)).json()) as { accounts: { users: RecordedUser[] }; core: { products: Array<{ id: string }> } }
    upstreamUsers = state.accounts.users
    productIds = state.core.products.slice(0, 3).map((product) => product.id)
    recorder = await startCli(['--quiet', '--seed', '99', ...['admin', 'core', 'quantum'].flatMap((area) => ['--proxy', `${area}=${upstream.url}/${area}`]), '--record', file])
  })
  afterAll(async () => {
    await replay?.stop()
    await recorder?.stop()
    await upstream?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('shows the file in the banner, and answers through the recorder as the upstream does', async () => {
    expect(recorder.stdout()).toContain(`Recording proxied answers to             ${file} (POST /__mock/recording/save writes it now)`)
    const created = await post(
      `${recorder.url}/admin/api/v1.2/users`,
      { username: 'recorded.ada', email: 'recorded.ada@example.com', password: PASSWORD },
      { authorization: `Bearer ${BEARER}`, cookie: `session=${COOKIE}` },
    )
    expect(created.status).toBe(201)
    createdId = (JSON.parse(created.text) as { id: string }).id
    expect((await post(`${recorder.url}/core/users`, { username: 'recorded.grace', email: 'recorded.grace@example.com', password: CORE_PASSWORD })).status).toBe(201)
    const measured = await post(`${recorder.url}/quantum/v1/measure`, { particle_id: 'electron-alice', measurement_axis: 'x-axis' })
    expect(measured.status).toBe(200)
    // Readings have no place in a scenario: counted as not mapped.
    expect((await post(`${recorder.url}/core/ingest/data`, [{ timestamp: '2025-06-01T12:00:00Z', value: 21.5, sensor_id: 'greenhouse-1' }])).status).toBe(200)
  })

  it('POST /__mock/recording/save writes the scenario recorded so far, while the recorder runs', async () => {
    const listed = await read(`${recorder.url}/admin/api/v1.2/users?limit=100`, { headers: { cookie: `session=${COOKIE}` } })
    expect(listed.total).toBe(String(upstreamUsers.length + 2))
    const saved = await read(`${recorder.url}/__mock/recording/save`, { method: 'POST' })
    expect(saved.status).toBe(200)
    const body = JSON.parse(saved.text) as { file: string; areas: Array<{ area: string; kept: Record<string, number> }>; summary: string[] }
    expect(body.file).toBe(file)
    expect(body.areas.map((area) => area.area)).toEqual(['admin', 'core', 'quantum'])
    expect(body.areas[0]!.kept).toEqual({ 'accounts.users': upstreamUsers.length + 2 })
    expect(body.summary[0]).toBe(`admin: ${upstreamUsers.length + 2} records kept (accounts.users ${upstreamUsers.length + 2}); 0 answers not mapped`)
    const written = JSON.parse(readFileSync(file, 'utf8')) as { seed: number; accounts: { users: RecordedUser[] } }
    expect(written.seed).toBe(99)
    expect(written.accounts.users.map((user) => user.username).sort()).toEqual([...upstreamUsers.map((user) => user.username), 'recorded.ada', 'recorded.grace'].sort())
  })

  it('answers 404 to POST /__mock/recording/save on a server started without --record', async () => {
    const answer = await read(`${upstream.url}/__mock/recording/save`, { method: 'POST' })
    expect(answer.status).toBe(404)
    expect(JSON.parse(answer.text)).toMatchObject({ error: 'not_found' })
  })

  it('records the reads, and writes the file on SIGINT with one summary line per area', async () => {
    const paths = [
      // Area A: every user, in one page and in pages of 20; a few details, the created user's too.
      '/admin/api/v1.2/users?limit=100',
      '/admin/api/v1.2/users?limit=20&page=1',
      '/admin/api/v1.2/users?limit=20&page=2',
      '/admin/api/v1.2/users?limit=20&page=3',
      ...upstreamUsers.slice(0, 3).map((user) => `/admin/api/v1.2/users/${user.id}`),
      `/admin/api/v1.2/users/${createdId}`,
      // Area B: its view of the same users; products, one that does not exist.
      '/core/users?limit=100',
      ...productIds.map((id) => `/core/products/${id}`),
      '/core/products/prod-9999',
      // Area C: the measured pair, and a pair measured before.
      '/quantum/v1/particles/electron-alice',
      '/quantum/v1/particles/electron-bob',
      '/quantum/v1/particles/positron-carol',
    ]
    for (const path of paths) {
      const [through, direct] = [await read(`${recorder.url}${path}`), await read(`${upstream.url}${path}`)]
      expect(through, path).toEqual(direct)
      recordedReads.set(path, through)
    }
    expect(recordedReads.get('/core/products/prod-9999')!.status).toBe(404)

    expect(await interrupt(recorder)).toBe(0)
    const users = upstreamUsers.length + 2
    const summary = recorder.stdout().slice(recorder.stdout().indexOf(`Recorded ${file}:\n`))
    const lines = summary.split('\n')
    expect(lines[0]).toBe(`Recorded ${file}:`)
    expect(lines[1]).toBe(`  admin: ${users} records kept (accounts.users ${users}); 0 answers not mapped`)
    expect(lines[2]).toMatch(
      new RegExp(
        `^ {2}core: ${users + productIds.length} records kept \\(accounts\\.users ${users}, core\\.products ${productIds.length}\\); 1 answer not mapped: POST /core/ingest/data \\(200\\): readings have no place in scenarios`,
      ),
    )
    expect(lines[3]).toMatch(/^ {2}quantum: [1-9]\d* records? kept \(quantum\.\w+ \d+(, quantum\.\w+ \d+)*\); 0 answers not mapped$/)
    expect(recorder.stderr()).toBe('')
  })

  it('answers every recorded read as the upstream did, from the file alone', async () => {
    await upstream.stop()
    replay = await startCli(['--quiet', '--seed', '99', '--scenario', file])
    for (const [path, recorded] of recordedReads) expect(await read(`${replay.url}${path}`), path).toEqual(recorded)
    // Nothing invented: a product never read is not in the replayed world.
    const unseen = (await read(`${replay.url}/core/products/prod-1999`)).status
    expect(unseen).toBe(404)
  })

  it('keeps no password, token, Authorization header or cookie in the file', () => {
    const text = readFileSync(file, 'utf8')
    for (const secret of [PASSWORD, CORE_PASSWORD, BEARER, COOKIE, 'Passw0rd!']) expect(text).not.toContain(secret)
    expect(text).not.toMatch(/authorization|cookie|bearer|password_hash|pbkdf2/i)
    const users = (JSON.parse(text) as { accounts: { users: RecordedUser[] } }).accounts.users
    expect(users.every((user) => user.password === null)).toBe(true)
  })

  it('refuses a login as a recorded user as it refuses a wrong password', async () => {
    const unknown = await post(`${replay!.url}/general/auth/login`, { username: 'nobody.at.all', password: 'not-the-password' })
    expect(unknown.status).toBe(401)
    for (const [username, password] of [
      ['recorded.ada', PASSWORD],
      ['recorded.grace', CORE_PASSWORD],
      [upstreamUsers.find((user) => user.username)!.username, 'Passw0rd!'],
    ] as const) {
      expect(await post(`${replay!.url}/general/auth/login`, { username, password }), username).toEqual(unknown)
    }
  })
})

describe('serve --record refused at start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'multi-area-mock-recording-errors-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('without --proxy: exit 1, one line', async () => {
    const result = await runCli(['serve', '--port', '0', '--record', join(dir, 'recorded.json')])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^multi-area-mock: --record needs --proxy[^\n]*\n$/)
    expect(existsSync(join(dir, 'recorded.json'))).toBe(false)
  })

  it('into a folder that does not exist: exit 1, one line', async () => {
    const missing = join(dir, 'no-such-folder', 'recorded.json')
    const result = await runCli(['serve', '--port', '0', '--proxy', 'admin=http://127.0.0.1:9/admin', '--record', missing])
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(`multi-area-mock: The folder of the recording file ${missing} does not exist.\n`)
  })
})
