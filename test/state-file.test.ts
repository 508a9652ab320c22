/**
 * `serve --state-file` with the real CLI: the world outlives the server; a
 * `kill -9` in the middle of writes loses none that was answered (issue 33:
 * nothing answered is lost); a file that cannot be read or is not a valid world
 * is refused with one line and left as it is. A symlink planted at a guessable
 * temporary name is never written through, and a state file that is a symlink
 * stays one.
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
    expect(first.stdout()).toContain(`World kept in (each change before its answer) ${file}`)
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

  it('after kill -9 in the middle of six clients writing, a restart on the same file finds every write answered 2xx before the kill', async () => {
    const file = join(dir, 'killed.json')
    const server = await startCli(['--quiet', '--state-file', file])
    const base = server.url
    const users: string[] = []
    const pairs: string[] = []
    // Each client edits a product of its own, its stock counting up: the last 2xx answer is the least the restart must show.
    const products = Array.from({ length: 6 }, (_, lane) => ({ id: `prod-${1001 + lane}`, answered: -1, sent: -1 }))
    let stop = false
    const write = async (path: string, method: string, body: unknown) => {
      const response = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      return { ok: response.ok, body: await response.json() }
    }
    const client = async (lane: number) => {
      const product = products[lane]!
      for (let i = 0; !stop; i++) {
        try {
          if (i % 4 === 0) {
            const username = `admin.${lane}.${i}`
            if ((await write('/admin/api/v1.2/users', 'POST', user(username))).ok) users.push(username)
          } else if (i % 4 === 1) {
            const username = `core.${lane}.${i}`
            if ((await write('/core/users', 'POST', user(username))).ok) users.push(username)
          } else if (i % 4 === 2) {
            product.sent = i
            if ((await write(`/core/products/${product.id}`, 'PUT', { price: i + 0.25, stock: i })).ok) product.answered = i
          } else {
            const answer = await write('/quantum/v1/entangle', 'POST', { particle_type: 'photon' })
            if (answer.ok) pairs.push(answer.body.particle_id_a, answer.body.particle_id_b)
          }
        } catch {
          // Killed: no answer, so nothing to find.
        }
      }
    }
    const clients = Array.from({ length: 6 }, (_, lane) => client(lane))
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    server.process.kill('SIGKILL')
    stop = true
    await Promise.all(clients)
    expect(users.length).toBeGreaterThan(50)
    expect(pairs.length).toBeGreaterThan(20)

    const again = await startCli(['--quiet', '--state-file', file])
    try {
      const names = new Set(await usernames(again.url))
      expect(users.filter((name) => !names.has(name))).toEqual([])
      for (const product of products) {
        const { stock, price } = await (await fetch(`${again.url}/core/products/${product.id}`)).json()
        // The last write answered, or the one sent after it, applied and kept but cut off before its answer.
        expect([product.answered, product.sent]).toContain(stock)
        expect(price).toBe(stock + 0.25)
      }
      const missing: string[] = []
      for (const id of pairs) if ((await fetch(`${again.url}/quantum/v1/particles/${id}`)).status !== 200) missing.push(id)
      expect(missing).toEqual([])
    } finally {
      expect(await again.stop()).toBe(0)
    }
  })

  it('never writes through a symlink planted at the old temporary names <file>.<pid>.tmp and <file>.log.<pid>.tmp', async () => {
    const folder = mkdtempSync(join(dir, 'planted-'))
    const file = join(folder, 'world.json')
    const victim = join(dir, 'victim.txt')
    writeFileSync(victim, 'not yours\n')
    const server = await startCli(['--quiet', '--state-file', file])
    const planted = [`${file}.${server.process.pid}.tmp`, `${file}.log.${server.process.pid}.tmp`]
    for (const name of planted) symlinkSync(victim, name)
    let code: number | null
    try {
      expect(await createUser(server.url, 'after.plant')).toBe(201)
    } finally {
      // The stop writes the state file and starts its log over: neither may go through a link.
      code = await server.stop()
    }
    expect(code).toBe(0)
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n')
    for (const name of planted) expect(readlinkSync(name)).toBe(victim)
    expect(lstatSync(file).isFile()).toBe(true)
    expect(lstatSync(`${file}.log`).isFile()).toBe(true)
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
      expect(server.stdout()).toContain(`World kept in (each change before its answer) ${link}`)
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
