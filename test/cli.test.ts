/**
 * End-to-end tests of the command line: the compiled `bin/multi-area-mock.js`
 * is spawned for real (run `npm run build` first) and talked to over HTTP on
 * 127.0.0.1 (D27). Every server started here is stopped in `afterAll`.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, runCli, startCli } from './support/cli-server.js'
import { call, type Reply } from './support/http.js'

const FIXED_CLOCK = '2026-01-01T00:00:00Z'

/** Every server this file started, so `afterAll` can make sure none survives. */
const started: CliServer[] = []

async function start(args: string[]): Promise<CliServer> {
  const server = await startCli(args)
  started.push(server)
  return server
}

afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()))
})

/** Lines of stderr that look like a stack trace frame (`    at foo (file.js:1:2)`). */
function stackLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => /^\s+at\s/.test(line))
}

function nonEmptyLines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '')
}

/** Waits until `predicate` holds for the server's stdout (log lines arrive asynchronously). */
async function waitForStdout(server: CliServer, predicate: (stdout: string) => boolean, timeoutMs = 3_000): Promise<string> {
  const deadline = Date.now() + timeoutMs
  while (!predicate(server.stdout())) {
    if (Date.now() > deadline) return server.stdout()
    await new Promise((r) => setTimeout(r, 25))
  }
  return server.stdout()
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode })
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
}

/** `true` when nothing listens on 127.0.0.1:`port` any more (we can bind it ourselves). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
}

/**
 * Runs the CLI expecting it to refuse to start: non-zero exit, no banner, no
 * stack trace. Returns the non-empty lines of stderr.
 */
async function refusedStart(args: string[]): Promise<string[]> {
  const { code, stdout, stderr } = await runCli(args)
  expect(code).not.toBe(0)
  expect(code).not.toBeNull()
  expect(stdout).not.toContain('listening on')
  expect(stackLines(stderr)).toEqual([])
  return nonEmptyLines(stderr)
}

function portOf(server: CliServer): number {
  return Number(new URL(server.url).port)
}

describe('multi-area-mock serve --help and scenarios', () => {
  it('serve --help exits 0 and documents every option', async () => {
    const { code, stdout, stderr } = await runCli(['serve', '--help'])
    expect(code).toBe(0)
    expect(stderr).toBe('')
    for (const option of [
      '--port',
      '--host',
      '--seed',
      '--clock',
      '--scenario',
      '--root',
      '--quiet',
      '--signature-mode',
      '--block-time',
      '--sensor-window',
      '--ingest-window',
      '--body-limit',
    ]) {
      expect(stdout, `help mentions ${option}`).toContain(option)
    }
    expect(stdout).toContain('Usage: multi-area-mock serve')
    expect(stdout).toMatch(/--body-limit <size>\s+largest request body[\s\S]*\(default: 1mb\)/)
    expect(stdout).toMatch(/--seed <n>\s+seed for every generated value and id, 0 to\s+4294967295/)
  })

  it('scenarios lists every built-in scenario with its description', async () => {
    const { code, stdout, stderr } = await runCli(['scenarios'])
    expect(code).toBe(0)
    expect(stderr).toBe('')
    const lines = nonEmptyLines(stdout)
    expect(lines).toHaveLength(4)
    for (const name of ['default', 'empty', 'pending-users', 'entangled-pairs']) {
      const line = lines.find((candidate) => candidate.split(/\s+/)[0] === name)
      expect(line, `a line for ${name}`).toBeDefined()
      // Name, then a real description (several words).
      expect(line!.slice(name.length).trim().split(/\s+/).length).toBeGreaterThan(3)
    }
    expect(stdout).toMatch(/^default\s+A realistic world/m)
    expect(stdout).toMatch(/^empty\s+Nothing at all/m)
    expect(stdout).toMatch(/^pending-users\s+Only pending users/m)
    expect(stdout).toMatch(/^entangled-pairs\s+The default users and catalogue plus 80 entangled pairs/m)
  })
})

describe('bad command lines exit non-zero with a clear message and no stack trace', () => {
  it.each([
    { args: ['--port', 'abc'], mentions: ["'abc'", 'integer from 0 to 65535'] },
    { args: ['--port', '70000'], mentions: ["'70000'", 'integer from 0 to 65535'] },
    { args: ['--clock', 'yesterday'], mentions: ["'yesterday'", 'ISO 8601'] },
    { args: ['--root', 'nope'], mentions: ["'nope'", 'admin', 'core'] },
    { args: ['--seed', 'abc'], mentions: ["'abc'", 'integer'] },
    { args: ['--seed', '-5'], mentions: ["'-5'", 'expected an integer from 0 to 4294967295'] },
    { args: ['--seed=-1'], mentions: ["'-1'", 'expected an integer from 0 to 4294967295'] },
    { args: ['--seed', '1.5'], mentions: ["'1.5'", 'expected an integer from 0 to 4294967295'] },
    { args: ['--seed', '4294967296'], mentions: ["'4294967296'", 'expected an integer from 0 to 4294967295'] },
    { args: ['--body-limit', '0'], mentions: ["'--body-limit <size>'", 'body limit "0"', 'from 1 to 268435456 (256mb)'] },
    { args: ['--body-limit', '-2kb'], mentions: ["'-2kb'", 'from 1 to 268435456 (256mb)'] },
    { args: ['--body-limit', '1gb'], mentions: ["'1gb'", 'from 1 to 268435456 (256mb)'] },
    { args: ['--body-limit', 'lots'], mentions: ["'lots'", 'Invalid size "lots"', 'kb, mb or gb'] },
    { args: ['--no-such-option'], mentions: ["unknown option '--no-such-option'"] },
    { args: ['--scenario', 'no-such-scenario'], mentions: ['no-such-scenario', 'default, empty, pending-users'] },
    { args: ['--signature-mode', 'eip-191'], mentions: ["'eip-191'", 'format, eip191, eip712'] },
    { args: ['--block-time', '0'], mentions: ['block time "0"', '--block-time'] },
    { args: ['--block-time', 'soon'], mentions: ['block time "soon"', 'duration'] },
    { args: ['--sensor-window', 'lots'], mentions: ["'--sensor-window <points>'", "'lots'", 'integer of 0 or more'] },
    { args: ['--ingest-window', '-1'], mentions: ["'--ingest-window <points>'", "'-1'", 'integer of 0 or more'] },
    { args: ['--ingest-window', '1e6'], mentions: ["'1e6'", 'integer of 0 or more'] },
  ])('serve $args', async ({ args, mentions }) => {
    // The cause is one line; commander may add a hint line after it.
    const [cause] = await refusedStart(['serve', '--port', '0', ...args])
    for (const text of mentions) expect(cause).toContain(text)
  })

  it('an unknown command is refused', async () => {
    const { code, stderr } = await runCli(['no-such-command'])
    expect(code).not.toBe(0)
    expect(stderr).toContain("unknown command 'no-such-command'")
    expect(stackLines(stderr)).toEqual([])
  })
})

describe('scenario files', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'multi-area-mock-cli-'))
  })
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  /** Runs `serve --scenario <path>`, expecting a one-line start-up failure naming the file. */
  async function failingScenario(path: string, named: string): Promise<string> {
    const lines = await refusedStart(['serve', '--port', '0', '--scenario', path])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(named)
    return lines[0]!
  }

  it('an unreadable file (missing) is one line naming the file', async () => {
    const relative = `./missing-${process.pid}.json`
    const line = await failingScenario(relative, resolve(relative))
    expect(line).toMatch(/no such file/i)
  })

  it('a directory is one line naming it', async () => {
    const line = await failingScenario(`${dir}/`, dir)
    expect(line).toMatch(/directory/i)
  })

  it('a file that is not JSON is one line naming the file', async () => {
    const file = join(dir, 'broken.json')
    writeFileSync(file, '{ "accounts": { users: [] } ')
    const line = await failingScenario(file, file)
    expect(line).toMatch(/not valid JSON/i)
  })

  it('a file that breaks the scenario schema names the file, the JSON path and the problem', async () => {
    const file = join(dir, 'bad-email.json')
    writeFileSync(file, JSON.stringify({ accounts: { users: [{ username: 'xavier', email: 'bad' }] } }))
    const line = await failingScenario(file, file)
    expect(line).toMatch(/accounts\.users\.0\.email: [^;]*email/)
    // Only the bad field is blamed.
    expect(line).not.toContain('accounts.users.0.username')
  })

  it('an unknown key is refused with its path', async () => {
    const file = join(dir, 'typo.json')
    writeFileSync(file, JSON.stringify({ acounts: { users: [] } }))
    const line = await failingScenario(file, file)
    expect(line).toContain('acounts')
  })

  describe('a valid custom scenario file', () => {
    let server: CliServer
    let file: string
    beforeAll(async () => {
      file = join(dir, 'team-alpha.json')
      writeFileSync(
        file,
        JSON.stringify({
          description: 'Two hand-written users',
          accounts: {
            users: [
              { username: 'alice.alpha', email: 'alice@alpha.test', status: 'active', created_at: '2025-01-01T00:00:00Z' },
              { username: 'bob.alpha', email: 'bob@alpha.test', status: 'inactive', created_at: '2025-01-02T00:00:00Z' },
            ],
          },
        }),
      )
      server = await start(['--scenario', file, '--quiet'])
    })

    it('is loaded: its users and only them are listed by Area A and Area B', async () => {
      const admin = await call(`${server.url}/admin/api/v1.2/users`)
      expect(admin.status).toBe(200)
      expect(admin.headers.get('x-total-count')).toBe('2')
      expect(admin.body.map((user: any) => [user.username, user.email, user.status])).toEqual([
        ['alice.alpha', 'alice@alpha.test', 'active'],
        ['bob.alpha', 'bob@alpha.test', 'inactive'],
      ])
      const core = await call(`${server.url}/core/users`)
      expect(core.body.map((user: any) => user.username)).toEqual(['alice.alpha', 'bob.alpha'])
    })

    it('is named after the file in the health endpoint, the banner and the scenario list', async () => {
      const health = await call(`${server.url}/__mock/health`)
      expect(health.status).toBe(200)
      expect(health.body.scenario).toBe(basename(file, '.json'))
      expect(server.stdout()).toContain('scenario "team-alpha"')
      const list = await call(`${server.url}/__mock/scenarios`)
      expect(list.body).toContainEqual({ name: 'team-alpha', description: 'Two hand-written users', active: true })
    })

    it('is what reset returns to', async () => {
      const created = await call(`${server.url}/admin/api/v1.2/users`, {
        method: 'POST',
        json: { username: 'carol.alpha', email: 'carol@alpha.test', password: 'correct horse' },
      })
      expect(created.status).toBe(201)
      expect((await call(`${server.url}/admin/api/v1.2/users`)).headers.get('x-total-count')).toBe('3')
      expect((await call(`${server.url}/__mock/reset`, { method: 'POST' })).status).toBe(200)
      const after = await call(`${server.url}/admin/api/v1.2/users`)
      expect(after.body.map((user: any) => user.username)).toEqual(['alice.alpha', 'bob.alpha'])
    })

    it('--quiet logs no request lines', async () => {
      await call(`${server.url}/core/users`)
      await call(`${server.url}/nothing/here`)
      await new Promise((r) => setTimeout(r, 300))
      expect(server.stdout()).not.toMatch(/^(GET|POST|PUT|DELETE) \//m)
      expect(server.stdout()).toContain('listening on')
    })
  })
})

describe('the default server', () => {
  let server: CliServer
  beforeAll(async () => {
    server = await start([])
  })

  it('binds 127.0.0.1 and prints a banner listing each area base URL and the control API', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const banner = server.stdout()
    expect(banner).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(scenario "default", seed 1, clock system/)
    expect(banner).toMatch(new RegExp(`^\\s+A\\s+User administration\\s+${escape(server.url)}/admin$`, 'm'))
    expect(banner).toMatch(new RegExp(`^\\s+B\\s+Core[^\\n]*\\s${escape(server.url)}/core$`, 'm'))
    expect(banner).toMatch(new RegExp(`Control API\\s+${escape(server.url)}/__mock$`, 'm'))
    // The URLs printed work.
    expect((await call(`${server.url}/admin/api/v1.2/users`)).status).toBe(200)
    expect((await call(`${server.url}/core/users`)).status).toBe(200)
    expect((await call(`${server.url}/__mock/health`)).status).toBe(200)
  })

  it('logs one line per request: method, path, status and duration', async () => {
    const before = server.stdout().length
    await call(`${server.url}/core/users?limit=1`)
    await call(`${server.url}/nothing/here`)
    await call(`${server.url}/admin/api/v1.2/users`, { method: 'POST', json: { username: 'x' } })
    const out = await waitForStdout(server, (stdout) => /^POST \/admin\/api\/v1\.2\/users 400/m.test(stdout.slice(before)))
    const lines = nonEmptyLines(out.slice(before))
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/^GET \/core\/users 200 \d+(\.\d+)?ms$/)
    expect(lines[1]).toMatch(/^GET \/nothing\/here 404 \d+(\.\d+)?ms$/)
    expect(lines[2]).toMatch(/^POST \/admin\/api\/v1\.2\/users 400 \d+(\.\d+)?ms$/)
    expect(server.stderr()).toBe('')
  })

  it('refuses a second server on the same port with one line naming the port', async () => {
    const port = portOf(server)
    const lines = await refusedStart(['serve', '--port', String(port)])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(String(port))
    expect(lines[0]).toMatch(/in use/i)
    // The first server is unaffected.
    expect((await call(`${server.url}/__mock/health`)).status).toBe(200)
  })
})

describe('--sensor-window and --ingest-window (D15 window)', () => {
  it('bound what ingestion keeps, while the counts stay exact', async () => {
    const server = await start(['--quiet', '--clock', FIXED_CLOCK, '--sensor-window', '2', '--ingest-window', '3'])
    const point = (sensor: string, value: number) => ({ timestamp: FIXED_CLOCK, value, sensor_id: sensor })
    const reply = await call(`${server.url}/core/ingest/data`, { method: 'POST', json: [point('a', 1), point('a', 2), point('a', 3), point('b', 4), point('c', 5)] })
    expect(reply.body).toMatchObject({ status: 'success', records_processed: 5 })
    const core = (await call(`${server.url}/__mock/state`)).body.core
    expect(core.ingestion).toEqual({ accepted: 5, evicted: 2, stored: 3, sensors: 3, sensor_window: 2, window: 3 })
    expect(core.readings.map((reading: { sensor_id: string; points: Array<{ value: number }> }) => [reading.sensor_id, reading.points.map((p) => p.value)])).toEqual([
      ['a', [3]],
      ['b', [4]],
      ['c', [5]],
    ])
  })
})

describe('stopping', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s closes the server cleanly: exit code 0 and the port is free', async (signal) => {
    const server = await start(['--quiet'])
    const port = portOf(server)
    // An open keep-alive connection must not keep the process alive.
    expect((await call(`${server.url}/__mock/health`)).status).toBe(200)
    const exited = exitOf(server.process)
    server.process.kill(signal)
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 8_000).unref())
    const result = await Promise.race([exited, timeout])
    expect(result).toEqual({ code: 0, signal: null })
    expect(await portIsFree(port)).toBe(true)
    expect(stackLines(server.stderr())).toEqual([])
    expect(server.stderr()).toBe('')
  })
})

describe('--seed and --clock make runs reproducible (D24)', () => {
  const args = ['--seed', '42', '--clock', FIXED_CLOCK, '--quiet']
  let first: CliServer
  let second: CliServer
  beforeAll(async () => {
    ;[first, second] = await Promise.all([start(args), start(args)])
  })

  async function session(base: string): Promise<{ transcript: string[]; created: any }> {
    const transcript: string[] = []
    const record = (reply: Reply, keep: string[]) => {
      transcript.push(String(reply.status), ...keep.map((name) => `${name}: ${reply.headers.get(name)}`), reply.text)
      return reply
    }
    const list = record(await call(`${base}/admin/api/v1.2/users?limit=5&page=2`), ['x-total-count', 'link'])
    expect(list.status).toBe(200)
    expect(list.body).toHaveLength(5)
    const created = record(
      await call(`${base}/admin/api/v1.2/users`, {
        method: 'POST',
        json: { username: 'repro.user', email: 'repro@example.com', password: 'Passw0rd!!' },
      }),
      ['location'],
    )
    expect(created.status).toBe(201)
    const read = record(await call(`${base}/admin/api/v1.2/users/${created.body.id}`), [])
    expect(read.status).toBe(200)
    record(await call(`${base}/core/users?limit=100`), ['x-total-count'])
    record(await call(`${base}/__mock/health`), [])
    return { transcript, created: created.body }
  }

  it('two processes answer the same requests byte for byte', async () => {
    const a = await session(first.url)
    const b = await session(second.url)
    // The health body names nothing process-specific, so everything must match.
    expect(b.transcript).toEqual(a.transcript)
    expect(b.created.id).toBe(a.created.id)
    expect(a.created).toMatchObject({ username: 'repro.user', status: 'pending', created_at: '2026-01-01T00:00:00.000Z' })
  })

  it('the banner and health report the seed and the frozen clock', async () => {
    expect(first.stdout()).toContain('seed 42, clock 2026-01-01T00:00:00.000Z')
    const health = await call(`${first.url}/__mock/health`)
    expect(health.body).toMatchObject({ seed: 42, clock: { now: '2026-01-01T00:00:00.000Z', fixed: true } })
  })

  it('a different seed gives different data', async () => {
    const other = await start(['--seed', '43', '--clock', FIXED_CLOCK, '--quiet'])
    const a = await call(`${first.url}/admin/api/v1.2/users?limit=5`)
    const b = await call(`${other.url}/admin/api/v1.2/users?limit=5`)
    expect(a.status).toBe(200)
    expect(b.status).toBe(200)
    expect(b.text).not.toBe(a.text)
    await other.stop()
  })
})

describe('--root core', () => {
  let server: CliServer
  beforeAll(async () => {
    server = await start(['--root', 'core', '--seed', '7', '--clock', FIXED_CLOCK])
  })

  it('mounts Area B at / as well as /core', async () => {
    const atRoot = await call(`${server.url}/users?limit=3`)
    const atPrefix = await call(`${server.url}/core/users?limit=3`)
    expect(atRoot.status).toBe(200)
    expect(atPrefix.status).toBe(200)
    expect(atRoot.body).toHaveLength(3)
    expect(atRoot.text).toBe(atPrefix.text)
    expect(atRoot.headers.get('x-total-count')).toBe(atPrefix.headers.get('x-total-count'))
    // Both mounts share one world: a user created at / is listed under /core.
    const created = await call(`${server.url}/users`, {
      method: 'POST',
      json: { username: 'rooted.user', email: 'rooted@example.com', password: 'Passw0rd!!' },
    })
    expect(created.status).toBe(201)
    const all = await call(`${server.url}/core/users?limit=100`)
    expect(all.body.map((user: any) => user.username)).toContain('rooted.user')
    // Other areas stay at their prefix only.
    expect((await call(`${server.url}/admin/api/v1.2/users`)).status).toBe(200)
    expect((await call(`${server.url}/api/v1.2/users`)).status).toBe(404)
  })

  it('lists both base URLs in the health endpoint and the banner', async () => {
    const health = await call(`${server.url}/__mock/health`)
    const core = health.body.areas.find((area: any) => area.id === 'core')
    expect(core.baseUrls).toEqual(expect.arrayContaining(['/core', '/']))
    expect(core.baseUrls).toHaveLength(2)
    const admin = health.body.areas.find((area: any) => area.id === 'admin')
    expect(admin.baseUrls).toEqual(['/admin'])
    expect(server.stdout()).toMatch(new RegExp(`^\\s+B\\s+Core[^\\n]*${escape(server.url)}/core\\s+${escape(server.url)}/$`, 'm'))
  })

  it('still answers unknown paths with the D27 404', async () => {
    const reply = await call(`${server.url}/nothing/here`)
    expect(reply.status).toBe(404)
    expect(reply.body.error).toBe('not_found')
  })
})

describe('--root ledger', () => {
  let server: CliServer
  beforeAll(async () => {
    server = await start(['--root', 'ledger', '--clock', FIXED_CLOCK, '--block-time', '2s', '--quiet'])
  })

  it('answers GET /v1/status at / as Area E, the same as under /ledger', async () => {
    const atRoot = await call(`${server.url}/v1/status`)
    expect(atRoot.status).toBe(200)
    // The default scenario's genesis is 2025-01-01T00:00:00Z; --block-time 2s.
    expect(atRoot.body).toMatchObject({ status: 'active', network_height: (365 * 24 * 3600) / 2, timestamp: '2026-01-01T00:00:00.000Z' })
    expect(atRoot.text).toBe((await call(`${server.url}/ledger/v1/status`)).text)
    expect((await call(`${server.url}/v1/tokens/weth`)).body.symbol).toBe('WETH')
    expect(server.stdout()).toMatch(new RegExp(`^\\s+E\\s+Ledger[^\\n]*${escape(server.url)}/ledger\\s+${escape(server.url)}/$`, 'm'))
  })
})

describe('--root with two areas that share a route (D2)', () => {
  it('refuses --root quantum --root ledger in one line naming GET /v1/status and both areas', async () => {
    const lines = await refusedStart(['serve', '--port', '0', '--root', 'quantum', '--root', 'ledger'])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^multi-area-mock: /)
    for (const text of ['GET /v1/status', '"quantum"', '"ledger"']) expect(lines[0]).toContain(text)
  })

  it('accepts two root areas whose routes do not clash', async () => {
    const server = await start(['--root', 'quantum', '--root', 'admin', '--quiet'])
    try {
      expect((await call(`${server.url}/v1/status`)).body.status).toBe('operational')
      expect((await call(`${server.url}/api/v1.2/users?limit=1`)).status).toBe(200)
    } finally {
      await server.stop()
    }
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
