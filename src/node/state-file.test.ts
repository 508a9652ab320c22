import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, relative } from 'node:path'
import { afterAll, expect, it, vi } from 'vitest'
import { createSimulator } from '../simulator/create-simulator.js'
import { StateFile } from './state-file.js'

// The real randomBytes, watched: a test hands out a chosen temporary name to make it clash.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>()
  return { ...actual, randomBytes: vi.fn((size: number) => actual.randomBytes(size)) }
})

const dir = mkdtempSync(join(tmpdir(), 'mam-state-unit-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const createUser = (sim: ReturnType<typeof createSimulator>, username: string) =>
  sim.fetch(
    new Request('http://localhost/admin/api/v1.2/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, email: `${username}@example.com`, password: 'Passw0rd!' }),
    }),
  )!

it('saves at most once an interval however many changes come, the last change included, through a renamed temporary file', async () => {
  const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z', areas: ['admin'] })
  await sim.ready
  const path = join(dir, 'world.json')
  const file = new StateFile(sim, path, { intervalMs: 200 })
  expect(await file.load()).toBe('created')
  expect(statSync(path).mode & 0o777).toBe(0o600)
  const saves: number[] = []
  const save = file.save.bind(file)
  file.save = async () => {
    saves.push(performance.now())
    return save()
  }
  file.attach()
  const started = performance.now()
  for (let i = 0; i < 12; i++) {
    await createUser(sim, `burst${i}`)
    await new Promise((resolve) => setTimeout(resolve, 40))
  }
  await new Promise((resolve) => setTimeout(resolve, 300))
  const elapsed = performance.now() - started
  // ~780 ms of changes every 40 ms: a save per 200 ms at most, not one per change.
  expect(saves.length).toBeGreaterThanOrEqual(2)
  expect(saves.length).toBeLessThanOrEqual(Math.ceil(elapsed / 200) + 1)
  for (let i = 1; i < saves.length; i++) expect(saves[i]! - saves[i - 1]!).toBeGreaterThanOrEqual(195)
  const names = JSON.parse(readFileSync(path, 'utf8')).accounts.users.map((user: { username: string }) => user.username)
  expect(names).toContain('burst11')
  expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([])
  await file.close()
})

it('loads the world it saved, password hashes included', async () => {
  const path = join(dir, 'round-trip.json')
  const first = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z', areas: ['admin'] })
  await first.ready
  await new StateFile(first, path).load()
  await createUser(first, 'round.trip')
  await new StateFile(first, path).save()
  const second = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z', areas: ['admin'], scenario: 'empty' })
  await second.ready
  expect(await new StateFile(second, path).load()).toBe('loaded')
  expect(second.snapshot()).toEqual(first.snapshot())
})

it('writes, streamed, exactly the JSON of a snapshot (password hashes included) and a newline', async () => {
  const sim = createSimulator({ seed: 2, clock: '2026-01-01T00:00:00Z', scenario: { accounts: { generate: { active: 3000 } } } })
  await sim.ready
  await createUser(sim, 'streamed.user')
  const path = join(dir, 'streamed.json')
  const file = new StateFile(sim, path)
  await file.save()
  const text = readFileSync(path, 'utf8')
  expect(text).toBe(`${JSON.stringify(sim.snapshot())}\n`)
  expect(text.length).toBeGreaterThan(500_000)
  expect(text).toContain('pbkdf2-hmac-sha256$')
})

const adminWorld = async () => {
  const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z', areas: ['admin'] })
  await sim.ready
  return sim
}

const usernamesIn = (path: string): string[] => JSON.parse(readFileSync(path, 'utf8')).accounts.users.map((user: { username: string }) => user.username)

it('never writes through a symlink planted at a guessable temporary name: the victim is untouched, the state file a regular file', async () => {
  const folder = mkdtempSync(join(dir, 'planted-'))
  const victim = join(dir, 'victim.txt')
  writeFileSync(victim, 'not yours\n')
  chmodSync(victim, 0o644)
  const path = join(folder, 'world.json')
  // The old `<file>.<pid>.tmp`, and what else someone could guess.
  const guesses = [
    `${path}.${process.pid}.tmp`,
    `${path}.${process.pid + 1}.tmp`,
    `${path}.tmp`,
    `${path}.new`,
    `${path}~`,
    join(folder, '.world.json.tmp'),
    join(folder, `.world.json.${process.pid}.tmp`),
  ]
  for (const guess of guesses) symlinkSync(victim, guess)
  const sim = await adminWorld()
  const file = new StateFile(sim, path, { intervalMs: 50 })
  expect(await file.load()).toBe('created')
  file.attach()
  await createUser(sim, 'planted.one')
  await new Promise((resolve) => setTimeout(resolve, 150))
  await createUser(sim, 'planted.two')
  await file.close()

  expect(readFileSync(victim, 'utf8')).toBe('not yours\n')
  expect(statSync(victim).mode & 0o777).toBe(0o644)
  expect(lstatSync(path).isFile()).toBe(true)
  expect(statSync(path).mode & 0o777).toBe(0o600)
  expect(usernamesIn(path)).toEqual(expect.arrayContaining(['planted.one', 'planted.two']))
  // The planted links are neither written through, nor moved, nor removed.
  for (const guess of guesses) expect(readlinkSync(guess)).toBe(victim)
  expect(readdirSync(folder).sort()).toEqual(['world.json', ...guesses.map((guess) => basename(guess))].sort())
})

it('tries a fresh random name when the temporary one exists already, and gives up after a few without touching it', async () => {
  const folder = mkdtempSync(join(dir, 'clash-'))
  const path = join(folder, 'world.json')
  const victim = join(folder, 'victim.txt')
  writeFileSync(victim, 'not yours\n')
  const chosen = Buffer.alloc(8, 0xab)
  const clash = `${path}.${chosen.toString('hex')}.tmp`
  symlinkSync(victim, clash)
  const sim = await adminWorld()
  const file = new StateFile(sim, path)
  const random = vi.mocked(randomBytes)

  random.mockClear().mockReturnValueOnce(chosen as never)
  await file.save()
  expect(random).toHaveBeenCalledTimes(2)
  expect(usernamesIn(path).length).toBeGreaterThan(0)

  // Every name clashes: the save fails in one line, leaves nothing behind and the world file as it was.
  const before = readFileSync(path, 'utf8')
  random.mockClear()
  for (let i = 0; i < 8; i++) random.mockReturnValueOnce(chosen as never)
  await createUser(sim, 'never.saved')
  await expect(file.save()).rejects.toThrow(`Cannot write the state file ${path} (EEXIST).`)
  expect(random).toHaveBeenCalledTimes(8)
  expect(readFileSync(path, 'utf8')).toBe(before)
  expect(readFileSync(victim, 'utf8')).toBe('not yours\n')
  expect(readlinkSync(clash)).toBe(victim)
  expect(readdirSync(folder).sort()).toEqual([basename(clash), 'victim.txt', 'world.json'].sort())
})

it('writes through a state file that is a symlink: the link stays a link, its target in another folder gets the new world, mode 0600', async () => {
  const folder = mkdtempSync(join(dir, 'link-'))
  const elsewhere = mkdtempSync(join(dir, 'target-'))
  const target = join(elsewhere, 'real.json')
  const sim = await adminWorld()
  await new StateFile(sim, target).save()
  chmodSync(target, 0o644)
  const link = join(folder, 'world.json')
  // Relative, as `ln -s ../target-x/real.json world.json` makes it.
  symlinkSync(relative(folder, target), link)

  const file = new StateFile(sim, link)
  expect(await file.load()).toBe('loaded')
  await createUser(sim, 'through.link')
  await file.save()

  expect(lstatSync(link).isSymbolicLink()).toBe(true)
  expect(readlinkSync(link)).toBe(relative(folder, target))
  expect(usernamesIn(target)).toContain('through.link')
  expect(statSync(target).mode & 0o777).toBe(0o600)
  // The temporary file was made beside the target (and renamed away): none left in either folder.
  expect(readdirSync(folder)).toEqual(['world.json'])
  expect(readdirSync(elsewhere)).toEqual(['real.json'])

  const again = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z', areas: ['admin'], scenario: 'empty' })
  await again.ready
  expect(await new StateFile(again, link).load()).toBe('loaded')
  expect(again.snapshot()).toEqual(sim.snapshot())
})

it('refuses a state file that is a symlink to a missing file with one line, and leaves the link as it is', async () => {
  const folder = mkdtempSync(join(dir, 'dangling-'))
  const link = join(folder, 'world.json')
  symlinkSync('../gone.json', link)
  const missing = join(dir, 'gone.json')
  const sim = await adminWorld()
  const refusal = { name: 'ConfigError', message: `The state file ${link} is a symbolic link to ${missing}, which does not exist; it was left as it is.` }

  await expect(new StateFile(sim, link).load()).rejects.toMatchObject(refusal)
  await expect(new StateFile(sim, link).save()).rejects.toMatchObject(refusal)
  expect(readlinkSync(link)).toBe('../gone.json')
  expect(existsSync(missing)).toBe(false)
  expect(readdirSync(folder)).toEqual(['world.json'])
})

it('removes its temporary file when a save fails after creating it', async () => {
  const folder = mkdtempSync(join(dir, 'fails-'))
  const path = join(folder, 'world.json')
  // A folder in the way: the temporary file is written, the rename over it fails.
  mkdirSync(path)
  writeFileSync(join(path, 'kept.txt'), '')
  const sim = await adminWorld()
  await expect(new StateFile(sim, path).save()).rejects.toThrow(/^Cannot write the state file .+world\.json \((EISDIR|ENOTEMPTY|EEXIST|EPERM)\)\.$/)
  expect(readdirSync(folder)).toEqual(['world.json'])
  expect(readdirSync(path)).toEqual(['kept.txt'])
})
