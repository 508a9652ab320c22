/**
 * A command is the route's validated input, not the raw body (issue 43): what
 * a request carries beyond what its route reads is never kept, sealed or
 * walked, so a write costs the same whatever extra properties it holds, and
 * every reader of the log (bundles, `--state-file`, history) stays bounded.
 * Over HTTP against the real CLI.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, startCli } from './support/cli-server.js'

const dir = mkdtempSync(join(tmpdir(), 'mam-commands-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The body: 10 `password` keys and 1,000 `seed` keys in extra properties (about 14 KB), beside a valid notification. */
function padded(): Record<string, unknown> {
  const body: Record<string, unknown> = { recipient_ids: [1], message: 'hello' }
  for (let i = 0; i < 10; i++) {
    const extra: Record<string, unknown> = { password: `secret-${i}-hunter2` }
    for (let j = 0; j < 100; j++) extra[`s${j}`] = { seed: i * 100 + j }
    body[`extra${i}`] = extra
  }
  return body
}

/** A JSON text nested `depth` arrays deep, built as text (no recursion). */
const deepArray = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, signal: AbortSignal.timeout(15_000) })

async function bundleOf(base: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}/__mock/bundle`, { signal: AbortSignal.timeout(15_000) })
  const text = await response.text()
  return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text }
}

describe('a command holds what its route read', () => {
  let server: CliServer
  beforeAll(async () => {
    server = await startCli(['--quiet'])
  })
  afterAll(() => server.stop())

  it('keeps a notification as its route accepted it: no extra key, no password, nothing sealed', async () => {
    const sent = await post(`${server.url}/general/notifications/send`, JSON.stringify(padded()))
    expect(sent.status).toBe(202)
    const { status, body } = await bundleOf(server.url)
    expect(status).toBe(200)
    const command = body.commands.at(-1)
    expect(command.url).toMatch(/\/general\/notifications\/send$/)
    expect(JSON.parse(command.body)).toEqual({ recipient_ids: [1], message: 'hello', priority: 'normal' })
    expect(command.sealed).toBeUndefined()
    expect(JSON.stringify(body)).not.toContain('hunter2')
  })

  it('answers a body nested 100,000 deep in an extra property with 400, and the bundle still answers', async () => {
    const sent = await post(`${server.url}/general/notifications/send`, `{"recipient_ids":[1],"message":"deep","junk":${deepArray(100_000)}}`)
    expect(sent.status).toBe(400)
    expect(await sent.json()).toMatchObject({ error: 'validation_failed', message: expect.stringContaining('deeper than') })
    expect((await bundleOf(server.url)).status).toBe(200)
  })

  it('answers a world whose scenario nests 100,000 deep with 400, not 500', async () => {
    const sent = await post(`${server.url}/__mock/worlds`, `{"scenario":{"general":{"resources":[{"data":{"x":${deepArray(100_000)}}}]}}}`)
    expect(sent.status).toBe(400)
    expect((await sent.json()).error).toBe('validation_failed')
  })

  it('keeps the data of a resource as given, a "password" key included (it is not a password the world hashes)', async () => {
    const state = await (await fetch(`${server.url}/__mock/state`)).json()
    const active = state.accounts.users.find((user: { status: string }) => user.status === 'active')
    const token = await (await post(`${server.url}/general/auth/login`, JSON.stringify({ username: active.username, password: 'Passw0rd!' }))).json()
    const put = await fetch(`${server.url}/general/resources/1`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.token}` },
      body: JSON.stringify({ data: { title: 'kept', password: 'not-a-login' } }),
    })
    expect(put.status).toBe(200)
    const { body } = await bundleOf(server.url)
    const command = body.commands.at(-1)
    expect(JSON.parse(command.body)).toEqual({ data: { title: 'kept', password: 'not-a-login' } })
    expect(command.sealed).toBeUndefined()
  })
})

describe('what a world keeps of refused writes', () => {
  let server: CliServer
  beforeAll(async () => {
    server = await startCli(['--quiet'])
  })
  afterAll(() => server.stop())

  const history = async () => (await (await fetch(`${server.url}/__mock/history`)).json()) as { count: number; commands: Array<{ method: string; path: string }> }
  const putState = (document: unknown) => fetch(`${server.url}/__mock/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(document) })

  it('leaves a refused PUT /__mock/state out of the history: it changed nothing', async () => {
    const before = await history()
    const refused = await putState({ accounts: { users: [{ bogus: 1 }] } })
    expect(refused.status).toBe(400)
    expect((await refused.json()).error).toBe('validation_failed')
    expect(await history()).toEqual(before)
  })

  it('refuses a document with more passwords in clear than one write may seal (413), before it becomes a command', async () => {
    const before = await history()
    const stateBefore = await (await fetch(`${server.url}/__mock/state`)).text()
    const users = Array.from({ length: 1001 }, (_, i) => ({ username: `user${i}`, email: `user${i}@example.com`, password: `password-${i}` }))
    const refused = await putState({ accounts: { users } })
    expect(refused.status).toBe(413)
    expect(await refused.json()).toMatchObject({ error: 'payload_too_large', message: expect.stringContaining('at most 1000') })
    expect(await history()).toEqual(before)
    expect(await (await fetch(`${server.url}/__mock/state`)).text()).toBe(stateBefore)
  })
})

describe('with --state-file, extra properties cost nothing', () => {
  it('writes the notification as its route read it, and a deep extra is a 400, not a 500', async () => {
    const file = join(dir, 'world.json')
    const server = await startCli(['--quiet', '--state-file', file])
    try {
      const sent = await post(`${server.url}/general/notifications/send`, JSON.stringify(padded()))
      expect(sent.status).toBe(202)
      const deep = await post(`${server.url}/general/notifications/send`, `{"recipient_ids":[1],"message":"deep","junk":${deepArray(100_000)}}`)
      expect(deep.status).toBe(400)
      expect((await fetch(`${server.url}/__mock/health`)).status).toBe(200)
      // Each change is in the log before its answer.
      const log = readFileSync(`${file}.log`, 'utf8')
      expect(log).not.toContain('hunter2')
      const written = log.split('\n').filter((line) => line.includes('notifications/send'))
      expect(written).toHaveLength(1)
      expect(written[0]).toContain(JSON.stringify(JSON.stringify({ recipient_ids: [1], message: 'hello', priority: 'normal' })))
      expect(written[0]!.length).toBeLessThan(512)
    } finally {
      await server.stop()
    }
  })
})
