import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { createSimulator } from '../simulator/create-simulator.js'
import { StateFile } from './state-file.js'

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
