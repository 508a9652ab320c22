/**
 * One redaction rule, everywhere (issue 43): password-like names anywhere in a
 * key (`password_confirmation`, `passwordConfirm`, `password2`,
 * `password_repeat`, `pin`), the wider secret names (`pass`, `pwd`,
 * `credential`, `auth`, `session`, `sid`, `*secret*`, `*accesskey*`, `sig`,
 * `key` in a query, `X-Amz-*`, `x-auth`, `x-session` headers) and values that
 * look like a Bearer credential or a JWT whatever their key (an upstream
 * echoing the caller's token under `"debug"`), end to end with the built CLI:
 * none shows in `GET /__mock/requests`, `/__mock/events`, the journal of
 * `GET /__mock/bundle`, a `serve --record` file or a `scenario from-har`
 * scenario; names that only look alike stay visible.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_PASSWORD } from '../src/world/accounts/account-schema.js'
import { type CliServer, runCli, startCli } from './support/cli-server.js'
import { recordingUpstream } from './support/recording-upstream.js'

const CLOCK = '2026-01-01T00:00:00Z'
const JSON_HEADERS = { 'content-type': 'application/json' }

/** Secrets sent in a user creation's body, by the key that carries each: none may show. */
const BODY_SECRETS = {
  password_confirmation: 'pw-Confirmation-1a2b',
  passwordConfirm: 'pw-Camel-3c4d',
  password2: 'pw-Two-5e6f',
  password_repeat: 'pw-Repeat-7a8b',
  pin: 'pin-918273',
  pass: 'pw-Pass-9c0d',
  pwd: 'pw-Pwd-1e2f',
  credential: 'cred-3a4b',
  auth: 'auth-5c6d',
  session: 'session-7e8f',
  sid: 'sid-9a0b',
  mySecretValue: 'secret-1c2d',
  awsAccessKeyId: 'AKIA-3e4f',
  sig: 'sig-5a6b',
}
/** Secrets sent as query parameters. */
const QUERY_SECRETS = {
  key: 'AIza-query-7c8d',
  sig: 'sig-query-9e0f',
  'X-Amz-Signature': 'amz-sig-1a2b',
  'X-Amz-Credential': 'amz-cred-3c4d',
  pwd: 'pw-query-5e6f',
  session: 'session-query-7a8b',
}
/** Secrets sent as headers. */
const HEADER_SECRETS = {
  'x-auth': 'x-auth-9c0d',
  'x-auth-token': 'x-auth-token-1e2f',
  'x-session': 'x-session-3a4b',
  'x-session-id': 'x-session-id-5c6d',
  'x-amz-security-token': 'amz-token-7e8f',
}
/** What must stay visible: names that only look like secrets. */
const VISIBLE = { passenger_count: 2, keyboard: 'qwerty-visible', token_id: 'token-id-visible', sidebar: 'sidebar-visible', author: 'author-visible' }

interface Read {
  status: number
  text: string
  json: any
}

async function send(url: string, init: RequestInit = {}): Promise<Read> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })
  const text = await response.text()
  return { status: response.status, text, json: text === '' ? undefined : JSON.parse(text) }
}

function withBody(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) }
}

/** A login as the first active user of a server; resolves with its token (a JWT). */
async function logIn(base: string): Promise<string> {
  const users = (await send(`${base}/__mock/state`)).json.accounts.users as Array<{ username: string; status: string }>
  const user = users.find((candidate) => candidate.status === 'active')!
  const login = await send(`${base}/general/auth/login`, withBody('POST', { username: user.username, password: DEFAULT_PASSWORD }))
  expect(login.status).toBe(200)
  return login.json.token as string
}

/** Every secret value of `secrets` found in `text`, by name. */
function found(text: string, secrets: Record<string, string>): string[] {
  return Object.entries(secrets)
    .filter(([, secret]) => text.includes(secret))
    .map(([name]) => name)
}

/** Reads a Server-Sent Events stream as text until `count` events named `name` arrived (or 10 s passed). */
async function readEvents(response: Response, name: string, count: number): Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  const deadline = setTimeout(() => void reader.cancel(), 10_000)
  let text = ''
  try {
    while (text.split(`event: ${name}\n`).length - 1 < count) {
      const { done, value } = await reader.read()
      if (done) break
      text += value
    }
  } finally {
    clearTimeout(deadline)
    await reader.cancel().catch(() => undefined)
  }
  return text
}

describe('the journal, the events stream and the bundle', () => {
  let server: CliServer
  let token: string
  let secrets: Record<string, string>
  let journal: Read
  let events: string
  let bundle: Read

  beforeAll(async () => {
    server = await startCli(['--quiet', '--seed', '5', '--clock', CLOCK])
    token = await logIn(server.url)
    secrets = { ...BODY_SECRETS, ...QUERY_SECRETS, ...HEADER_SECRETS, token, tokenSignature: token.split('.')[2]! }
    const stream = await fetch(`${server.url}/__mock/events`, { signal: AbortSignal.timeout(15_000) })
    const streamed = readEvents(stream, 'request', 4)

    // A user created with every password-like and secret name in its body, and some that are not secrets.
    const created = await send(
      `${server.url}/admin/api/v1.2/users`,
      withBody('POST', { username: 'redaction.ada', email: 'redaction.ada@example.com', password: 'pw-Main-Secret-9', ...BODY_SECRETS, ...VISIBLE }),
    )
    expect(created.status).toBe(201)
    // Secrets in the query and in headers, and the caller's token in a query value under a name that is no secret.
    const query = new URLSearchParams({ ...QUERY_SECRETS, debug: token, page: '1', keyboard: 'visible-query' })
    expect((await send(`${server.url}/admin/api/v1.2/users?${query}`, { headers: { ...HEADER_SECRETS, 'x-debug': `Bearer ${token}`, 'x-note': token } })).status).toBe(200)
    // The caller's bearer token, echoed under "debug" by the resource it updates.
    const updated = await send(`${server.url}/general/resources/1`, withBody('PUT', { data: { title: 'Q3', debug: `Bearer ${token}` } }, { authorization: `Bearer ${token}` }))
    expect(updated.status).toBe(200)
    expect(updated.json.resource.debug).toBe(`Bearer ${token}`)
    expect((await send(`${server.url}/general/data/1`)).json.debug).toBe(`Bearer ${token}`)

    journal = await send(`${server.url}/__mock/requests`)
    events = await streamed
    bundle = await send(`${server.url}/__mock/bundle`)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('GET /__mock/requests shows each secret as [redacted], and the names that only look alike', () => {
    expect(journal.status).toBe(200)
    expect(found(journal.text, secrets)).toEqual([])
    const [login, created, listed, updated, read] = journal.json.entries
    expect(login.responseBody.token).toBe('[redacted]')
    expect(created.requestBody).toEqual({
      username: 'redaction.ada',
      email: 'redaction.ada@example.com',
      password: '[redacted]',
      ...Object.fromEntries(Object.keys(BODY_SECRETS).map((key) => [key, '[redacted]'])),
      ...VISIBLE,
    })
    const url = new URL(listed.url)
    for (const name of [...Object.keys(QUERY_SECRETS), 'debug']) expect(url.searchParams.get(name), name).toBe('[redacted]')
    expect(url.searchParams.get('keyboard')).toBe('visible-query')
    for (const name of [...Object.keys(HEADER_SECRETS), 'x-debug', 'x-note']) expect(listed.requestHeaders[name], name).toBe('[redacted]')
    expect(updated.requestHeaders.authorization).toBe('Bearer [redacted]')
    expect(updated.requestBody).toEqual({ data: { title: 'Q3', debug: '[redacted]' } })
    expect(updated.responseBody.resource).toMatchObject({ title: 'Q3', debug: '[redacted]' })
    expect(read.responseBody).toMatchObject({ title: 'Q3', debug: '[redacted]' })
  })

  it('/__mock/events shows the entries redacted the same', () => {
    expect(events.split('event: request\n').length - 1).toBe(4)
    expect(found(events, secrets)).toEqual([])
    expect(events).toContain('"password_confirmation":"[redacted]"')
    expect(events).toContain('"debug":"[redacted]"')
    expect(events).toContain('"keyboard":"qwerty-visible"')
  })

  it("GET /__mock/bundle's journal is redacted the same", () => {
    expect(bundle.status).toBe(200)
    expect(found(JSON.stringify(bundle.json.journal), secrets)).toEqual([])
    expect(bundle.json.journal).toEqual(journal.json.entries)
    // What the world was given is the world's (a replay must rebuild it): only the commands' URLs are redacted.
    const commands = JSON.stringify(bundle.json.commands.map((command: { url: string }) => command.url))
    expect(found(commands, secrets)).toEqual([])
  })
})

describe('recording', () => {
  const dir = mkdtempSync(join(tmpdir(), 'multi-area-mock-redaction-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('a recorded scenario holds no bearer token an upstream echoed under "debug" or in a message (recorder harness)', async () => {
    const { upstream, recorder, through } = recordingUpstream({ areas: ['general'], base: 'http://127.0.0.1:3000/general', upstream: { scenario: 'default' } })
    await upstream.ready
    const user = upstream.exportState().accounts.users.find((account) => account.status === 'active')!
    const token = (await through('POST', '/auth/login', { username: user.username, password: DEFAULT_PASSWORD })).json.token as string
    const bearer = { authorization: `Bearer ${token}` }
    expect(
      (await through('PUT', '/resources/1', { data: { title: 'Q3', debug: `Bearer ${token}`, note: token, nested: { echo: `Authorization: Bearer ${token}` } } }, bearer)).status,
    ).toBe(200)
    expect((await through('GET', '/data/1')).json.debug).toBe(`Bearer ${token}`)
    expect((await through('POST', '/notifications/send', { recipient_ids: [1], message: `your token is ${token}` }, bearer)).status).toBe(202)
    const text = JSON.stringify(recorder.scenario())
    expect(text).not.toContain(token.split('.')[2]!)
    expect(text).not.toContain(token.split('.')[1]!)
    expect(recorder.scenario()).toMatchObject({ general: { resources: [expect.objectContaining({ id: 1, data: expect.objectContaining({ title: 'Q3' }) })] } })
  })

  it('serve --record writes no bearer token the upstream echoed', async () => {
    const upstream = await startCli(['--quiet', '--seed', '7', '--clock', CLOCK])
    const file = join(dir, 'recorded.json')
    const proxy = await startCli(['--quiet', '--seed', '99', '--proxy', `general=${upstream.url}/general`, '--record', file])
    try {
      const token = await logIn(upstream.url)
      const bearer = { authorization: `Bearer ${token}` }
      expect((await send(`${proxy.url}/general/resources/1`, withBody('PUT', { data: { title: 'Q3', debug: `Bearer ${token}` } }, bearer))).status).toBe(200)
      expect((await send(`${proxy.url}/general/data/1`)).json.debug).toBe(`Bearer ${token}`)
      expect((await send(`${proxy.url}/__mock/recording/save`, { method: 'POST' })).status).toBe(200)
      const written = readFileSync(file, 'utf8')
      expect(written).toContain('"title": "Q3"')
      expect(written).not.toContain(token.split('.')[2]!)
    } finally {
      await proxy.stop()
      await upstream.stop()
    }
  })

  it('scenario from-har makes a scenario with no bearer token or JWT an answer held', async () => {
    const upstream = await startCli(['--quiet', '--seed', '7', '--clock', CLOCK])
    let answer: Read
    try {
      const token = await logIn(upstream.url)
      await send(`${upstream.url}/general/resources/1`, withBody('PUT', { data: { title: 'Q3', debug: `Bearer ${token}`, note: token } }, { authorization: `Bearer ${token}` }))
      answer = await send(`${upstream.url}/general/data/1`)
    } finally {
      await upstream.stop()
    }
    const token = (answer.json.note as string).split('.')[2]!
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'redaction test', version: '1' },
        entries: [{ request: { method: 'GET', url: 'https://backend.example.com/general/data/1' }, response: { status: 200, content: { text: answer.text } } }],
      },
    }
    writeFileSync(join(dir, 'session.har'), JSON.stringify(har))
    const result = await runCli(['scenario', 'from-har', join(dir, 'session.har'), '--out', join(dir, 'from-har.json')])
    expect(result.code, result.stderr).toBe(0)
    const written = readFileSync(join(dir, 'from-har.json'), 'utf8')
    expect(written).toContain('"title": "Q3"')
    expect(written).not.toContain(token)
  })
})
