import { randomBytes } from 'node:crypto'
import {
  appendFileSync,
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join, relative } from 'node:path'
import { afterAll, expect, it, vi } from 'vitest'
import { createSimulator, type SimulatorOptions } from '../../simulator/create-simulator.js'
import type { Simulator } from '../../simulator/simulator.js'
import { StateFile, type StateFileOptions } from './state-file.js'

// The real randomBytes, watched: a test hands out a chosen temporary name to make it clash.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>()
  return { ...actual, randomBytes: vi.fn((size: number) => actual.randomBytes(size)) }
})

const dir = mkdtempSync(join(tmpdir(), 'mam-state-unit-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const world = async (options: Pick<SimulatorOptions, 'areas' | 'scenario'> = {}) => {
  const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z', ...options })
  await sim.ready
  return sim
}

/** A StateFile whose warnings are collected instead of printed. */
const keeper = (sim: Simulator, path: string, options: StateFileOptions = {}) => {
  const warnings: string[] = []
  const file = new StateFile(sim, path, { onWarning: (message) => warnings.push(message), ...options })
  return { file, warnings }
}

const send = async (sim: Simulator, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...headers } }
  if (body !== undefined) init.body = JSON.stringify(body)
  const response = await sim.fetch(new Request(`http://localhost${path}`, init))!
  return { status: response.status, headers: response.headers, body: await response.json().catch(() => undefined) }
}

const createUser = (sim: Simulator, username: string, password = 'Passw0rd!') =>
  send(sim, 'POST', '/admin/api/v1.2/users', { username, email: `${username}@example.com`, password })

const text = (path: string) => readFileSync(path, 'utf8')
const usernamesIn = (path: string): string[] => JSON.parse(text(path)).accounts.users.map((user: { username: string }) => user.username)
/** Changes in the log (the settings line that follows each new state file aside). */
const logEntries = (path: string) => (text(`${path}.log`).match(/^[0-9a-f]{8} \+ (?!\{"kind":"settings")/gm) ?? []).length

it('creates the file from the seeded world at the first start: a complete state document, owner-only, its log beside it', async () => {
  const sim = await world({ areas: ['admin'] })
  const path = join(mkdtempSync(join(dir, 'created-')), 'world.json')
  const { file } = keeper(sim, path)
  expect(await file.load()).toBe('created')
  expect(text(path)).toBe(`${JSON.stringify(sim.snapshot())}\n`)
  expect(statSync(path).mode & 0o777).toBe(0o600)
  expect(statSync(`${path}.log`).mode & 0o777).toBe(0o600)
  await file.close()
})

it('after a clean stop the file is a complete state document again, with an empty log, and loads the same world, password hashes included', async () => {
  const path = join(mkdtempSync(join(dir, 'round-trip-')), 'world.json')
  const first = await world({ areas: ['admin'] })
  const { file } = keeper(first, path)
  await file.load()
  file.attach()
  expect((await createUser(first, 'round.trip')).status).toBe(201)
  await file.close()
  expect(text(path)).toBe(`${JSON.stringify(first.snapshot())}\n`)
  expect(text(path)).toContain('pbkdf2-hmac-sha256$')
  expect(logEntries(path)).toBe(0)

  const second = await world({ areas: ['admin'], scenario: 'empty' })
  expect(await keeper(second, path).file.load()).toBe('loaded')
  expect(second.snapshot()).toEqual(first.snapshot())
})

it('writes, streamed, exactly the JSON of a snapshot (password hashes included) and a newline', async () => {
  const sim = createSimulator({ seed: 2, clock: '2026-01-01T00:00:00Z', scenario: { accounts: { generate: { active: 3000 } } } })
  await sim.ready
  const path = join(dir, 'streamed.json')
  const { file } = keeper(sim, path)
  await file.load()
  file.attach()
  await createUser(sim, 'streamed.user')
  await file.save()
  const saved = text(path)
  expect(saved).toBe(`${JSON.stringify(sim.snapshot())}\n`)
  expect(saved.length).toBeGreaterThan(500_000)
  expect(saved).toContain('streamed.user')
  await file.close()
})

/** Users through both areas, product edits and entangled pairs, a few at a time; the answers that were 2xx. */
async function writeMix(sim: Simulator, label: string, rounds: number) {
  const statuses: number[] = []
  for (let round = 0; round < rounds; round++) {
    const answers = await Promise.all([
      createUser(sim, `${label}.admin.${round}`),
      send(sim, 'POST', '/core/users', { username: `${label}.core.${round}`, email: `${label}.${round}@example.com`, password: 'Passw0rd!' }),
      send(sim, 'PUT', `/core/products/prod-100${1 + (round % 5)}`, { price: 10 + round, stock: round }),
      send(sim, 'POST', '/quantum/v1/entangle', { particle_type: 'photon' }),
    ])
    statuses.push(...answers.map((answer) => answer.status))
  }
  return statuses
}

it('after writes and no close() (a crash), a restart on the same file finds every answered write', async () => {
  const path = join(mkdtempSync(join(dir, 'crash-')), 'world.json')
  const first = await world()
  const { file } = keeper(first, path)
  await file.load()
  file.attach()
  const statuses = await writeMix(first, 'crash', 6)
  expect(statuses.every((status) => status >= 200 && status < 300)).toBe(true)
  // No close(): the file is still the seeded world, the changes are in the log.
  expect(usernamesIn(path)).not.toContain('crash.admin.0')

  const second = await world()
  const { file: again, warnings } = keeper(second, path)
  expect(await again.load()).toBe('loaded')
  expect(warnings).toEqual([])
  expect(second.snapshot()).toEqual(first.snapshot())
})

it('folds the log into the state file past compactAfter changes while writes go on, and a crash after still loses nothing', async () => {
  const folder = mkdtempSync(join(dir, 'compact-'))
  const path = join(folder, 'world.json')
  const first = await world()
  const { file, warnings } = keeper(first, path, { compactAfter: 10, compactGrowth: 0 })
  await file.load()
  file.attach()
  // Four writes at a time: compactions start and run while more writes are answered.
  const statuses = await writeMix(first, 'fold', 12)
  expect(statuses.every((status) => status >= 200 && status < 300)).toBe(true)
  // The state file was written again with the early writes, and the log started over (nothing left to fold, no temporary file).
  await vi.waitFor(() => {
    expect(usernamesIn(path)).toContain('fold.core.5')
    expect(logEntries(path)).toBeLessThan(10)
    expect(readdirSync(folder).sort()).toEqual(['world.json', 'world.json.log'])
  })

  const second = await world()
  const again = keeper(second, path)
  expect(await again.file.load()).toBe('loaded')
  expect(second.snapshot()).toEqual(first.snapshot())
  expect([...warnings, ...again.warnings]).toEqual([])
})

it('keeps the clock, the fault rules and what a reset returns to across a compaction and a crash', async () => {
  const path = join(mkdtempSync(join(dir, 'settings-')), 'world.json')
  const first = await world()
  const { file } = keeper(first, path, { compactAfter: 3, compactGrowth: 0 })
  await file.load()
  file.attach()
  expect((await send(first, 'POST', '/__mock/clock', { advance: '1d' })).status).toBe(200)
  expect((await send(first, 'PUT', '/__mock/faults', { rules: [{ route: '/core/products/*', status: 503, times: 5 }] })).status).toBe(200)
  await writeMix(first, 'settings', 2)
  // The clock move and the rules are folded into the state file now: only its settings line remembers them.
  await vi.waitFor(() => expect(usernamesIn(path)).toContain('settings.core.1'))
  await file.save()

  const second = await world()
  await keeper(second, path).file.load()
  expect((await send(second, 'GET', '/__mock/clock')).body).toEqual((await send(first, 'GET', '/__mock/clock')).body)
  expect((await send(second, 'GET', '/__mock/faults')).body).toEqual((await send(first, 'GET', '/__mock/faults')).body)
  for (const sim of [first, second]) expect((await send(sim, 'POST', '/__mock/reset')).status).toBe(200)
  expect(second.snapshot()).toEqual(first.snapshot())
})

it('replays a settings line found between changes (a crash while a new state file was written) without undoing the changes before it', async () => {
  const path = join(mkdtempSync(join(dir, 'settings-between-')), 'world.json')
  const first = await world({ areas: ['admin'] })
  const { file } = keeper(first, path)
  await file.load()
  file.attach()
  for (const name of ['before.one', 'before.two']) expect((await createUser(first, name)).status).toBe(201)
  // What a crash after a compaction's settings line, before its state file was renamed in, leaves: the old file, the
  // changes before the compaction, its settings line, the changes after. (The first line of the log is such a line.)
  const settings = text(`${path}.log`)
    .split('\n')
    .find((line) => line.includes('+ {"kind":"settings"'))!
  appendFileSync(`${path}.log`, `${settings}\n`)
  expect((await createUser(first, 'after.one')).status).toBe(201)

  const second = await world({ areas: ['admin'] })
  expect(await keeper(second, path).file.load()).toBe('loaded')
  expect(second.snapshot().accounts.users.map((user) => user.username)).toEqual(expect.arrayContaining(['before.one', 'before.two', 'after.one']))
  expect(second.snapshot()).toEqual(first.snapshot())
})

it('cuts a torn last line of the log with one warning, and loads every change before it', async () => {
  const path = join(mkdtempSync(join(dir, 'torn-')), 'world.json')
  const first = await world({ areas: ['admin'] })
  const { file } = keeper(first, path)
  await file.load()
  file.attach()
  for (const name of ['torn.one', 'torn.two', 'torn.three']) expect((await createUser(first, name)).status).toBe(201)
  // A kill in the middle of writing the next change (the 4 entries: the settings line of the first state file, then the users).
  appendFileSync(`${path}.log`, '0badc0de + {"world":null,"method":"POST","url":"http://localhost/admin/api/v1.2/us')

  const second = await world({ areas: ['admin'] })
  const { file: again, warnings } = keeper(second, path)
  expect(await again.load()).toBe('loaded')
  expect(warnings).toEqual([
    expect.stringMatching(/^Cut a torn last line \(\d+ bytes\) from the log .+world\.json\.log, left by a stop in the middle of a write; the 4 entries before it are kept\.$/),
  ])
  expect(second.snapshot()).toEqual(first.snapshot())
  expect(second.snapshot().accounts.users.map((user) => user.username)).toEqual(expect.arrayContaining(['torn.one', 'torn.two', 'torn.three']))
})

it('never keeps a password in clear, in the file or its log, and a user can still log in after a crash and after a clean stop', async () => {
  const path = join(mkdtempSync(join(dir, 'password-')), 'world.json')
  const secret = 'Secret-Lighthouse-4711'
  const first = await world({ areas: ['admin', 'core', 'general'] })
  const { file } = keeper(first, path)
  await file.load()
  file.attach()
  expect((await send(first, 'POST', '/core/users', { username: 'keeper', email: 'keeper@example.com', password: secret })).status).toBe(201)
  expect((await send(first, 'POST', '/general/auth/login', { username: 'keeper', password: secret })).status).toBe(200)
  const onDisk = () => text(path) + text(`${path}.log`)
  expect(onDisk()).toContain('keeper@example.com')
  expect(onDisk()).not.toContain(secret)

  const login = (sim: Simulator, password: string) => send(sim, 'POST', '/general/auth/login', { username: 'keeper', password })
  const crashed = await world({ areas: ['admin', 'core', 'general'] })
  const afterCrash = keeper(crashed, path)
  await afterCrash.file.load()
  afterCrash.file.attach()
  expect((await login(crashed, secret)).status).toBe(200)
  expect((await login(crashed, 'not-the-password')).status).toBe(401)
  await afterCrash.file.close()
  expect(onDisk()).not.toContain(secret)

  const stopped = await world({ areas: ['admin', 'core', 'general'] })
  await keeper(stopped, path).file.load()
  expect((await login(stopped, secret)).status).toBe(200)
})

it('answers a write it could not keep with 503 store_unavailable and Retry-After, says so once, and keeps it once the disk works again', async () => {
  const path = join(mkdtempSync(join(dir, 'failing-')), 'world.json')
  const sim = await world({ areas: ['admin'] })
  const { file, warnings } = keeper(sim, path)
  await file.load()
  file.attach()
  expect((await createUser(sim, 'before.failure')).status).toBe(201)
  // The disk fails every flush of the log (the state file itself is written with fsync, not fdatasync).
  const probe = await open(path, 'r')
  const fileHandle = Object.getPrototypeOf(probe) as { datasync(): Promise<void> }
  await probe.close()
  const failing = vi.spyOn(fileHandle, 'datasync').mockRejectedValue(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }))
  let answers: Awaited<ReturnType<typeof createUser>>[]
  try {
    answers = await Promise.all(['lost.one', 'lost.two', 'lost.three'].map((name) => createUser(sim, name)))
    answers.push(await createUser(sim, 'lost.four'))
  } finally {
    failing.mockRestore()
  }
  for (const answer of answers) {
    expect(answer.status).toBe(503)
    expect(answer.headers.get('retry-after')).toBe('1')
    expect(answer.body).toEqual({ error: 'store_unavailable', message: 'The state file could not be written (EIO); the change is in memory but not on disk.' })
  }
  expect(warnings).toEqual([`Cannot write the log ${path}.log (EIO). Writes are answered 503 until it can be written again; the world is kept in memory.`])

  expect((await createUser(sim, 'after.failure')).status).toBe(201)
  await file.close()
  expect(warnings).toHaveLength(1)
  // In memory all along, and written with the world since.
  expect(usernamesIn(path)).toEqual(expect.arrayContaining(['before.failure', 'lost.one', 'lost.four', 'after.failure']))
})

it('writes the whole world after a change made from code (no request, so nothing in the log), and a crash after keeps it', async () => {
  const path = join(mkdtempSync(join(dir, 'from-code-')), 'world.json')
  const first = await world({ areas: ['admin'] })
  const { file } = keeper(first, path)
  await file.load()
  file.attach()
  expect((await createUser(first, 'before.reload')).status).toBe(201)
  await first.loadScenario('empty')
  await vi.waitFor(() => expect(usernamesIn(path)).toEqual([]))

  const second = await world({ areas: ['admin'] })
  await keeper(second, path).file.load()
  expect(second.snapshot().accounts.users).toEqual([])
})

it('keeps the default world only: an isolated world and what is written into it are gone after a restart', async () => {
  const path = join(mkdtempSync(join(dir, 'isolated-')), 'world.json')
  const first = await world({ areas: ['admin'] })
  const { file } = keeper(first, path)
  await file.load()
  file.attach()
  expect((await send(first, 'POST', '/__mock/worlds', { id: 'lab' })).status).toBe(201)
  expect((await createUser(first, 'in.default')).status).toBe(201)
  expect((await send(first, 'POST', '/admin/api/v1.2/users', { username: 'in.lab', email: 'lab@example.com', password: 'Passw0rd!' }, { 'x-mock-world': 'lab' })).status).toBe(201)

  const second = await world({ areas: ['admin'] })
  await keeper(second, path).file.load()
  expect(second.snapshot()).toEqual(first.snapshot())
  expect(second.snapshot().accounts.users.map((user) => user.username)).not.toContain('in.lab')
  expect((await send(second, 'GET', '/__mock/worlds/lab')).status).toBe(404)
})

it('never writes through a symlink planted at a guessable temporary name: the victim is untouched, the files regular', async () => {
  const folder = mkdtempSync(join(dir, 'planted-'))
  const victim = join(dir, 'victim.txt')
  writeFileSync(victim, 'not yours\n')
  chmodSync(victim, 0o644)
  const path = join(folder, 'world.json')
  // The old `<file>.<pid>.tmp`, and what else someone could guess, for the file and its log.
  const guesses = [`${path}.${process.pid}.tmp`, `${path}.tmp`, `${path}.new`, `${path}~`, join(folder, '.world.json.tmp'), `${path}.log.tmp`, `${path}.log.${process.pid}.tmp`]
  for (const guess of guesses) symlinkSync(victim, guess)
  const sim = await world({ areas: ['admin'] })
  const { file } = keeper(sim, path, { compactAfter: 2 })
  expect(await file.load()).toBe('created')
  file.attach()
  for (const name of ['planted.one', 'planted.two', 'planted.three']) await createUser(sim, name)
  await file.close()

  expect(readFileSync(victim, 'utf8')).toBe('not yours\n')
  expect(statSync(victim).mode & 0o777).toBe(0o644)
  for (const name of [path, `${path}.log`]) {
    expect(lstatSync(name).isFile()).toBe(true)
    expect(statSync(name).mode & 0o777).toBe(0o600)
  }
  expect(usernamesIn(path)).toEqual(expect.arrayContaining(['planted.one', 'planted.two', 'planted.three']))
  // The planted links are neither written through, nor moved, nor removed.
  for (const guess of guesses) expect(readlinkSync(guess)).toBe(victim)
  expect(readdirSync(folder).sort()).toEqual(['world.json', 'world.json.log', ...guesses.map((guess) => basename(guess))].sort())
})

it('tries a fresh random name when the temporary one exists already, and gives up after a few without touching it', async () => {
  const folder = mkdtempSync(join(dir, 'clash-'))
  const path = join(folder, 'world.json')
  const victim = join(folder, 'victim.txt')
  writeFileSync(victim, 'not yours\n')
  const chosen = Buffer.alloc(8, 0xab)
  const clash = `${path}.${chosen.toString('hex')}.tmp`
  symlinkSync(victim, clash)
  const sim = await world({ areas: ['admin'] })
  const { file } = keeper(sim, path)
  const random = vi.mocked(randomBytes)

  random.mockClear().mockReturnValueOnce(chosen as never)
  expect(await file.load()).toBe('created')
  expect(usernamesIn(path).length).toBeGreaterThan(0)

  // Every name clashes: the save fails in one line, leaves nothing behind and the state file as it was.
  file.attach()
  const before = text(path)
  random.mockClear()
  for (let i = 0; i < 8; i++) random.mockReturnValueOnce(chosen as never)
  expect((await createUser(sim, 'in.the.log')).status).toBe(201)
  await expect(file.save()).rejects.toThrow(`Cannot write the state file ${path} (EEXIST).`)
  expect(random).toHaveBeenCalledTimes(8)
  expect(text(path)).toBe(before)
  expect(readFileSync(victim, 'utf8')).toBe('not yours\n')
  expect(readlinkSync(clash)).toBe(victim)
  expect(readdirSync(folder).sort()).toEqual([basename(clash), 'victim.txt', 'world.json', 'world.json.log'].sort())
  await file.close()
  expect(usernamesIn(path)).toContain('in.the.log')
})

it('writes through a state file that is a symlink: the link stays a link, its target in another folder gets the new world, mode 0600', async () => {
  const folder = mkdtempSync(join(dir, 'link-'))
  const elsewhere = mkdtempSync(join(dir, 'target-'))
  const target = join(elsewhere, 'real.json')
  const sim = await world({ areas: ['admin'] })
  writeFileSync(target, `${JSON.stringify(sim.snapshot())}\n`, { mode: 0o644 })
  const link = join(folder, 'world.json')
  // Relative, as `ln -s ../target-x/real.json world.json` makes it.
  symlinkSync(relative(folder, target), link)

  const { file } = keeper(sim, link)
  expect(await file.load()).toBe('loaded')
  file.attach()
  await createUser(sim, 'through.link')
  await file.close()

  expect(lstatSync(link).isSymbolicLink()).toBe(true)
  expect(readlinkSync(link)).toBe(relative(folder, target))
  expect(usernamesIn(target)).toContain('through.link')
  expect(statSync(target).mode & 0o777).toBe(0o600)
  // The log sits beside the link; temporary files were made beside what they replace (and renamed away).
  expect(readdirSync(folder).sort()).toEqual(['world.json', 'world.json.log'])
  expect(readdirSync(elsewhere)).toEqual(['real.json'])

  const again = await world({ areas: ['admin'], scenario: 'empty' })
  expect(await keeper(again, link).file.load()).toBe('loaded')
  expect(again.snapshot()).toEqual(sim.snapshot())
})

it('refuses a state file that is a symlink to a missing file with one line, and leaves the link as it is', async () => {
  const folder = mkdtempSync(join(dir, 'dangling-'))
  const link = join(folder, 'world.json')
  symlinkSync('../gone.json', link)
  const missing = join(dir, 'gone.json')
  const sim = await world({ areas: ['admin'] })

  await expect(keeper(sim, link).file.load()).rejects.toMatchObject({
    name: 'ConfigError',
    message: `The state file ${link} is a symbolic link to ${missing}, which does not exist; it was left as it is.`,
  })
  expect(readlinkSync(link)).toBe('../gone.json')
  expect(existsSync(missing)).toBe(false)
  expect(readdirSync(folder)).toEqual(['world.json'])
})

it('removes its temporary file when writing the state file fails after creating it, and says so in one line on close', async () => {
  const folder = mkdtempSync(join(dir, 'fails-'))
  const path = join(folder, 'world.json')
  const sim = await world({ areas: ['admin'] })
  const { file, warnings } = keeper(sim, path)
  await file.load()
  file.attach()
  // A folder in the way: the temporary file is written, the rename over it fails.
  rmSync(path)
  mkdirSync(path)
  writeFileSync(join(path, 'kept.txt'), '')
  expect((await createUser(sim, 'still.kept')).status).toBe(201)
  await expect(file.save()).rejects.toThrow(/^Cannot write the state file .+world\.json \((EISDIR|ENOTEMPTY|EEXIST|EPERM)\)\.$/)
  expect(readdirSync(folder).sort()).toEqual(['world.json', 'world.json.log'])
  expect(readdirSync(path)).toEqual(['kept.txt'])
  await file.close()
  expect(warnings).toEqual([
    expect.stringMatching(/^Cannot write the state file .+world\.json \(\w+\)\. Nothing is lost: the changes are in .+world\.json\.log and load at the next start\.$/),
  ])
  expect(text(`${path}.log`)).toContain('still.kept')
})
