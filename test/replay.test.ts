/**
 * `serve --replay <bundle.json>` (issue 35, docs/forensics.md), end to end
 * with the built CLI: a world changed by writes of every kind (a user with a
 * password, a product, the clock, an entangled pair, an isolated world with
 * writes of its own) is saved from `GET /__mock/bundle`; a server started from
 * the file answers `GET /__mock/state` with the same bytes, logs in with the
 * password the original was sent (which the file never holds in clear), and
 * keeps a history of its own that replays again. `--replay-until n` gives the
 * world as it stood before command n; a changed file, another version's bundle
 * that does not replay identically, a missing or invalid file and world flags
 * given besides are each refused with one line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsPlugin from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, runCli, startCli } from './support/cli-server.js'

const CLOCK = '2026-03-01T09:00:00.000Z'
const PASSWORD = 'replayed-password-7c2e'
const WORLD_PASSWORD = 'world-password-31ad'
const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version
const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default

interface Answer {
  status: number
  text: string
}

async function send(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  })
  return { status: response.status, text: await response.text() }
}

const W1 = { 'x-mock-world': 'w1' }
const stateOf = async (server: CliServer, headers: Record<string, string> = {}) => (await send(`${server.url}/__mock/state`, 'GET', undefined, headers)).text

/** Stderr of a start that must fail: exit 1, one line, nothing listening. */
async function refusedStart(args: string[]): Promise<string> {
  const run = await runCli(['serve', '--port', '0', '--quiet', ...args])
  expect(run.code).toBe(1)
  expect(run.stdout).not.toContain('listening on')
  const lines = run.stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  return lines[0]!
}

describe('serve --replay <bundle.json>', () => {
  const dir = mkdtempSync(join(tmpdir(), 'multi-area-mock-replay-'))
  const servers: CliServer[] = []
  let original: CliServer
  /** The default world before its second command, read on the original. */
  let beforeSecond: string
  let state: string
  let bundleText: string
  let worldState: string
  let worldBundleText: string
  const file = join(dir, 'mock-world.json')
  const worldFile = join(dir, 'w1.json')

  const replay = async (...args: string[]) => {
    const server = await startCli(['--quiet', '--replay', ...args])
    servers.push(server)
    return server
  }

  beforeAll(async () => {
    original = await startCli(['--quiet', '--seed', '3', '--clock', CLOCK])
    servers.push(original)
    const base = original.url
    expect((await send(`${base}/admin/api/v1.2/users`, 'POST', { username: 'ada', email: 'ada@example.com', password: PASSWORD })).status).toBe(201)
    beforeSecond = await stateOf(original)
    expect((await send(`${base}/core/products/prod-1001`, 'PUT', { price: 12.5, stock: 3 })).status).toBe(200)
    expect((await send(`${base}/__mock/clock`, 'POST', { advance: '3h' })).status).toBe(200)
    expect((await send(`${base}/quantum/v1/entangle`, 'POST', { particle_type: 'photon' })).status).toBe(201)
    expect((await send(`${base}/__mock/worlds`, 'POST', { id: 'w1', scenario: 'entangled-pairs', seed: 9 })).status).toBe(201)
    expect((await send(`${base}/core/users`, 'POST', { username: 'bob', email: 'bob@example.com', password: WORLD_PASSWORD }, W1)).status).toBe(201)
    expect((await send(`${base}/quantum/v1/measure`, 'POST', { particle_id: 'electron-alice', axis: 'z-axis' }, W1)).status).toBe(200)
    // Each state read just before its bundle: nothing changes between them.
    state = await stateOf(original)
    bundleText = (await send(`${base}/__mock/bundle`)).text
    worldState = await stateOf(original, W1)
    worldBundleText = (await send(`${base}/__mock/bundle`, 'GET', undefined, W1)).text
    writeFileSync(file, bundleText)
    writeFileSync(worldFile, worldBundleText)
  }, 30_000)
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()))
    rmSync(dir, { recursive: true, force: true })
  })

  it('saves every write in order, with no password in clear, valid against `bundle-schema`', async () => {
    const bundle = JSON.parse(bundleText) as { version: string; world: string | null; takenAt: string; commands: Array<{ method: string; url: string }> }
    expect(bundle.commands.map((command) => `${command.method} ${new URL(command.url).pathname}`)).toEqual([
      'POST /admin/api/v1.2/users',
      'PUT /core/products/prod-1001',
      'POST /__mock/clock',
      'POST /quantum/v1/entangle',
      'POST /__mock/worlds',
    ])
    expect(bundle).toMatchObject({ version: VERSION, world: null, takenAt: '2026-03-01T12:00:00.000Z' })
    for (const text of [bundleText, worldBundleText]) {
      expect(text).not.toContain(PASSWORD)
      expect(text).not.toContain(WORLD_PASSWORD)
    }
    const printed = await runCli(['bundle-schema'])
    expect(printed.code).toBe(0)
    const schema = JSON.parse(printed.stdout) as { $ref: string; $defs: Record<string, { title?: string }> }
    expect(schema.$defs[schema.$ref.replace('#/$defs/', '')]?.title).toBe('multi-area-mock world bundle')
    const ajv = new Ajv2020({ allErrors: true, strict: false })
    addFormats(ajv)
    const validate = ajv.compile(schema)
    expect(validate(JSON.parse(bundleText)), JSON.stringify(validate.errors)).toBe(true)
    expect(validate({ ...JSON.parse(worldBundleText), format: 2 })).toBe(false)
  })

  it('starts with the world as it stood when the bundle was taken: the same state bytes, the password logs in', async () => {
    const replayed = await replay(file)
    expect(replayed.stdout()).toContain(`Replayed ${file}: 5 commands (world default, taken 2026-03-01T12:00:00.000Z with multi-area-mock ${VERSION})`)
    expect(replayed.stdout()).toMatch(/\(scenario "default", seed 3, clock 2026-03-01T12:00:00\.000Z,/)
    expect(await stateOf(replayed)).toBe(state)
    expect(JSON.parse((await send(`${replayed.url}/__mock/clock`)).text)).toMatchObject({ now: '2026-03-01T12:00:00.000Z', fixed: true })
    // Its own history: its bundle (taken before any other write) replays to the same world again.
    const again = join(dir, 'again.json')
    writeFileSync(again, (await send(`${replayed.url}/__mock/bundle`)).text)
    expect(await stateOf(await replay(again))).toBe(state)
    // A write on the replay: the password only the sealed command carried.
    expect((await send(`${replayed.url}/general/auth/login`, 'POST', { username: 'ada', password: PASSWORD })).status).toBe(200)
    expect((await send(`${replayed.url}/general/auth/login`, 'POST', { username: 'ada', password: 'not-it' })).status).toBe(401)
    // And the history goes on past the replay: a bundle with the login in it replays to the world with the login.
    const later = join(dir, 'later.json')
    const withLogin = await stateOf(replayed)
    writeFileSync(later, (await send(`${replayed.url}/__mock/bundle`)).text)
    expect(withLogin).not.toBe(state)
    expect(await stateOf(await replay(later))).toBe(withLogin)
  }, 60_000)

  it('replays an isolated world as the default world', async () => {
    const replayed = await replay(worldFile)
    expect(replayed.stdout()).toContain(`Replayed ${worldFile}: 2 commands (world w1, taken`)
    expect(await stateOf(replayed)).toBe(worldState)
    expect((await send(`${replayed.url}/general/auth/login`, 'POST', { username: 'bob', password: WORLD_PASSWORD })).status).toBe(200)
  }, 30_000)

  it('--replay-until n stops before command n: the world as it stood then', async () => {
    const replayed = await replay(file, '--replay-until', '2')
    expect(replayed.stdout()).toContain(`Replayed ${file}: 1 of 5 commands, stopped before command 2 (world default`)
    expect(await stateOf(replayed)).toBe(beforeSecond)
    expect(await refusedStart(['--replay', file, '--replay-until', '7'])).toBe(
      'multi-area-mock: --replay-until must be a command number from 1 to 6 (the bundle holds 5 commands).',
    )
    expect(await refusedStart(['--replay-until', '2'])).toBe('multi-area-mock: --replay-until needs --replay: it stops the replay of a bundle before one of its commands.')
  }, 30_000)

  it('refuses a bundle of another version that does not replay identically, naming both versions', async () => {
    const bundle = JSON.parse(bundleText) as { version: string; commands: unknown[] }
    const tampered = join(dir, 'tampered.json')
    writeFileSync(tampered, JSON.stringify({ ...bundle, version: '0.0.1', commands: bundle.commands.filter((_, index) => index !== 1) }))
    expect(await refusedStart(['--replay', tampered])).toMatch(
      new RegExp(
        `^multi-area-mock: The bundle does not replay to the world it was taken of \\(it was taken with multi-area-mock 0\\.0\\.1; this is ${VERSION.replaceAll('.', '\\.')}\\): `,
      ),
    )
    // Another version whose bundle does replay identically is welcome.
    const older = join(dir, 'older.json')
    writeFileSync(older, JSON.stringify({ ...bundle, version: '0.0.1' }))
    const replayed = await replay(older)
    expect(replayed.stdout()).toContain('with multi-area-mock 0.0.1)')
    expect(await stateOf(replayed)).toBe(state)
  }, 30_000)

  it('refuses a missing or invalid file, and world flags given besides, with one line', async () => {
    const missing = join(dir, 'missing.json')
    expect(await refusedStart(['--replay', missing])).toBe(`multi-area-mock: Cannot read bundle file ${missing}: no such file.`)
    const broken = join(dir, 'broken.json')
    writeFileSync(broken, bundleText.slice(0, 200))
    expect(await refusedStart(['--replay', broken])).toMatch(new RegExp(`^multi-area-mock: Bundle file ${broken} is not valid JSON: `))
    const stateFile = join(dir, 'state.json')
    writeFileSync(stateFile, state)
    expect(await refusedStart(['--replay', stateFile])).toBe(`multi-area-mock: Bundle file ${stateFile} is not a multi-area-mock world bundle (take one with GET /__mock/bundle).`)
    // The world is the bundle's: a flag that would change it is refused, never silently ignored.
    expect(await refusedStart(['--replay', file, '--seed', '5', '--scenario', 'empty'])).toBe(
      "multi-area-mock: --replay rebuilds the world from the bundle's own options (seed, clock, scenario, areas, limits…): leave out --scenario, --seed (only the server's own options and --jwt-secret may be given with it).",
    )
    expect(await refusedStart(['--replay', file, '--state-file', join(dir, 'kept.json')])).toBe(
      'multi-area-mock: --replay starts from the world of a bundle: not with --state-file or --store, which keep a world of their own.',
    )
  }, 30_000)
})
