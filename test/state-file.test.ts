/**
 * `serve --state-file` with the real CLI: the world outlives the server, a
 * `kill -9` in the middle of writes leaves a file that loads and holds every
 * change older than the save interval, and a file that cannot be read or is
 * not a valid world is refused with one line and left as it is. A symlink
 * planted at a guessable temporary name is never written through, and a state
 * file that is a symlink stays one.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
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
    const approved = await fetch(`${first.url}/admin/api/v1.2/users/${id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'active' }),
    })
    expect(approved.status).toBe(200)
    const created = (await usernames(first.url)).length
    expect(await first.stop()).toBe(0)

    const second = await startCli(['--quiet', '--state-file', file])
    try {
      const names = await usernames(second.url)
      expect(names).toContain('kept.user')
      expect(names).toHaveLength(created)
      // The password hash came back too: the user can still log in.
      const login = await fetch(`${second.url}/general/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'kept.user', password: 'Passw0rd!' }),
      })
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

  it('never writes through a symlink planted at the old temporary name <file>.<pid>.tmp', async () => {
    const folder = mkdtempSync(join(dir, 'planted-'))
    const file = join(folder, 'world.json')
    const victim = join(dir, 'victim.txt')
    writeFileSync(victim, 'not yours\n')
    const server = await startCli(['--quiet', '--state-file', file])
    const planted = `${file}.${server.process.pid}.tmp`
    symlinkSync(victim, planted)
    let code: number | null
    try {
      expect(await createUser(server.url, 'after.plant')).toBe(201)
    } finally {
      // The stop saves once more: that save too must not go through the link.
      code = await server.stop()
    }
    expect(code).toBe(0)
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n')
    expect(readlinkSync(planted)).toBe(victim)
    expect(lstatSync(file).isFile()).toBe(true)
    expect(JSON.parse(readFileSync(file, 'utf8')).accounts.users.map((entry: { username: string }) => entry.username)).toContain('after.plant')
  })

  it('writes through a state file that is a symlink: it stays a link, and its target holds the world', async () => {
    const target = join(mkdtempSync(join(dir, 'target-')), 'real.json')
    const link = join(dir, 'linked.json')
    const first = await startCli(['--quiet', '--state-file', target])
    expect(await createUser(first.url, 'direct.user')).toBe(201)
    expect(await first.stop()).toBe(0)
    symlinkSync(target, link)

    const server = await startCli(['--quiet', '--state-file', link])
    let code: number | null
    try {
      expect(server.stdout()).toContain(`World kept in (saved after each change)  ${link}`)
      expect(await usernames(server.url)).toContain('direct.user')
      expect(await createUser(server.url, 'linked.user')).toBe(201)
    } finally {
      code = await server.stop()
    }
    expect(code).toBe(0)
    expect(readlinkSync(link)).toBe(target)
    expect(JSON.parse(readFileSync(target, 'utf8')).accounts.users.map((entry: { username: string }) => entry.username)).toContain('linked.user')
    expect(statSync(target).mode & 0o777).toBe(0o600)
  })

  it('refuses a state file that is a symlink to a missing file with one line, and leaves the link as it is', async () => {
    const target = join(dir, 'gone.json')
    const link = join(dir, 'dangling.json')
    symlinkSync(target, link)
    const result = await runCli(['serve', '--port', '0', '--state-file', link])
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(`multi-area-mock: The state file ${link} is a symbolic link to ${target}, which does not exist; it was left as it is.\n`)
    expect(result.stdout).toBe('')
    expect(readlinkSync(link)).toBe(target)
    expect(existsSync(target)).toBe(false)
  })

  it.each([
    ['not JSON', '{"format": 1, "accounts": ', /^multi-area-mock: The state file .*corrupt\.json is not JSON \(.+\); it was left as it is\.\n$/],
    [
      'not a valid world',
      JSON.stringify({ format: 1, accounts: { users: [{ username: 'x' }] } }),
      /^multi-area-mock: Invalid state file .*corrupt\.json: accounts\.users\.0\.\w+: .+; it was left as it is\.\n$/,
    ],
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
