/**
 * `serve --state-file` with the real CLI: the world outlives the server, a
 * `kill -9` in the middle of writes leaves a file that loads and holds every
 * change older than the save interval, and a file that cannot be read or is
 * not a valid world is refused with one line and left as it is.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, startCli } from './support/cli-server.js'

const dir = mkdtempSync(join(tmpdir(), 'mam-state-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const user = (username: string) => ({ username, email: `${username}@example.com`, password: 'Passw0rd!' })

async function createUser(base: string, username: string): Promise<number> {
  const response = await fetch(`${base}/admin/api/v1.2/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user(username)) })
  await response.arrayBuffer()
  return response.status
}

async function usernames(base: string): Promise<string[]> {
  const state = await (await fetch(`${base}/__mock/state`)).json()
  return state.accounts.users.map((entry: { username: string }) => entry.username)
}

describe('serve --state-file', () => {
  it('keeps the world across a restart, logins included, and says where in the banner', async () => {
    const file = join(dir, 'restart.json')
    const first = await startCli(['--quiet', '--state-file', file])
    expect(first.stdout()).toContain(`World kept in (saved after each change)  ${file}`)
    expect(first.stdout()).toMatch(/Inspector\s+http:\/\/127\.0\.0\.1:\d+\/__mock\/ui/)
    const posted = await fetch(`${first.url}/admin/api/v1.2/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user('kept.user')) })
    const { id } = await posted.json()
    const approved = await fetch(`${first.url}/admin/api/v1.2/users/${id}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 'active' }) })
    expect(approved.status).toBe(200)
    const created = (await usernames(first.url)).length
    expect(await first.stop()).toBe(0)

    const second = await startCli(['--quiet', '--state-file', file])
    try {
      const names = await usernames(second.url)
      expect(names).toContain('kept.user')
      expect(names).toHaveLength(created)
      // The password hash came back too: the user can still log in.
      const login = await fetch(`${second.url}/general/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'kept.user', password: 'Passw0rd!' }) })
      expect(login.status).toBe(200)
    } finally {
      await second.stop()
    }
  })

  it('after kill -9 in the middle of heavy writes, the file loads and holds every change older than the save interval', async () => {
    const file = join(dir, 'killed.json')
    const server = await startCli(['--quiet', '--state-file', file])
    const done: Array<{ username: string; at: number }> = []
    let stop = false
    const writer = async (lane: number) => {
      for (let i = 0; !stop; i++) {
        const username = `heavy.${lane}.${i}`
        if ((await createUser(server.url, username).catch(() => 0)) === 201) done.push({ username, at: performance.now() })
      }
    }
    const lanes = Array.from({ length: 6 }, (_, lane) => writer(lane))
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    const killedAt = performance.now()
    server.process.kill('SIGKILL')
    stop = true
    await Promise.all(lanes)
    // Changes answered more than the 500 ms interval (plus 250 ms for the save itself to reach the disk) before the kill.
    const old = done.filter((entry) => entry.at < killedAt - 750).map((entry) => entry.username)
    expect(old.length).toBeGreaterThan(20)
    const state = JSON.parse(readFileSync(file, 'utf8'))
    const saved = new Set(state.accounts.users.map((entry: { username: string }) => entry.username))
    expect(old.filter((name) => !saved.has(name))).toEqual([])

    const again = await startCli(['--quiet', '--state-file', file])
    try {
      const names = new Set(await usernames(again.url))
      expect(old.filter((name) => !names.has(name))).toEqual([])
    } finally {
      await again.stop()
    }
  })

  it.each([
    ['not JSON', '{"format": 1, "accounts": ', /^multi-area-mock: The state file .*corrupt\.json is not JSON \(.+\); it was left as it is\.\n$/],
    ['not a valid world', JSON.stringify({ format: 1, accounts: { users: [{ username: 'x' }] } }), /^multi-area-mock: Invalid state file .*corrupt\.json: accounts\.users\.0\.\w+: .+; it was left as it is\.\n$/],
  ])('refuses a file that is %s with one line, and leaves it as it is', async (_, content, message) => {
    const file = join(dir, 'corrupt.json')
    writeFileSync(file, content)
    const result = await runCli(['serve', '--port', '0', '--state-file', file])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(message)
    expect(result.stdout).toBe('')
    expect(readFileSync(file, 'utf8')).toBe(content)
  })

  it('refuses a file it cannot read with one line', async () => {
    const file = join(dir, 'a-directory.json')
    mkdirSync(file)
    const result = await runCli(['serve', '--port', '0', '--state-file', file])
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(`multi-area-mock: Cannot read the state file ${file} (EISDIR); it was left as it is.\n`)
  })

  it('refuses a place it cannot write to at start, before answering anything', async () => {
    const file = join(dir, 'no-such-folder', 'world.json')
    const result = await runCli(['serve', '--port', '0', '--state-file', file])
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(`multi-area-mock: Cannot write the state file ${file} (ENOENT).\n`)
  })
})
