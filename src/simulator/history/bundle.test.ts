import { describe, expect, it } from 'vitest'
import { replayBundle } from './bundle-replay.js'
import { createSimulator } from '../create-simulator.js'
import { engineOf } from '../engine.js'
import type { Simulator } from '../simulator.js'
import { type WorldBundle, worldBundleSchema } from './world-bundle.js'

const BASE = 'http://sim.test'
const PASSWORD = 'correct horse battery'

async function send(sim: Simulator, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } }
  if (body !== undefined) init.body = JSON.stringify(body)
  const response = await sim.fetch(new Request(`${BASE}${path}`, init))!
  return { status: response.status, text: await response.text() }
}

const stateText = async (sim: Simulator, world?: string) => (await send(sim, 'GET', '/__mock/state', undefined, world ? { 'x-mock-world': world } : {})).text

async function bundleOf(sim: Simulator, world?: string): Promise<WorldBundle> {
  const answer = await send(sim, 'GET', '/__mock/bundle', undefined, world ? { 'x-mock-world': world } : {})
  expect(answer.status).toBe(200)
  return worldBundleSchema.parse(JSON.parse(answer.text))
}

/** A simulator made from a bundle's options, somewhere else and later, its clock running. */
async function replayed(bundle: WorldBundle, until?: number): Promise<Simulator> {
  const sim = createSimulator({ ...bundle.options, clock: 'system' })
  await replayBundle(engineOf(sim), bundle, until)
  return sim
}

describe('world bundles', () => {
  it('rebuild the default world byte for byte from its commands, with no password in clear', async () => {
    const sim = createSimulator({ seed: 11, clock: 'system' })
    await sim.ready
    expect((await send(sim, 'POST', '/admin/api/v1.2/users', { username: 'ada', email: 'ada@example.com', password: PASSWORD })).status).toBe(201)
    expect((await send(sim, 'PUT', '/core/products/prod-1001', { price: 12.5 })).status).toBe(200)
    expect((await send(sim, 'POST', '/__mock/clock', { advance: '3h' })).status).toBe(200)
    expect((await send(sim, 'POST', '/quantum/v1/entangle', { particle_type: 'photon' })).status).toBe(201)
    const bundle = await bundleOf(sim)
    expect(bundle.commands.map((command) => `${command.method} ${new URL(command.url).pathname}`)).toEqual([
      'POST /admin/api/v1.2/users',
      'PUT /core/products/prod-1001',
      'POST /__mock/clock',
      'POST /quantum/v1/entangle',
    ])
    expect(bundle.journal.map((entry) => entry.status)).toEqual([201, 200, 201])
    expect(JSON.stringify(bundle)).not.toContain(PASSWORD)
    const again = await replayed(bundle)
    expect(await stateText(again)).toBe(await stateText(sim))
    // The sealed password logs in on the replay too.
    expect((await send(again, 'POST', '/general/auth/login', { username: 'ada', password: PASSWORD })).status).toBe(200)
    // The replayed clock stands where the world's stood when the bundle was taken.
    expect(again.now()).toBe(bundle.takenAt)
  })

  it('rebuild an isolated world, and any point of its history with until', async () => {
    const sim = createSimulator({ seed: 5, clock: '2026-01-01T00:00:00Z' })
    await sim.ready
    expect((await send(sim, 'POST', '/__mock/worlds', { id: 'w1', scenario: 'entangled-pairs', seed: 9 })).status).toBe(201)
    const world = { 'x-mock-world': 'w1' }
    expect((await send(sim, 'POST', '/core/users', { username: 'bob', email: 'bob@example.com', password: PASSWORD }, world)).status).toBe(201)
    const before = await stateText(sim, 'w1')
    expect((await send(sim, 'POST', '/quantum/v1/measure', { particle_id: 'electron-alice', axis: 'z-axis' }, world)).status).toBe(200)
    const bundle = await bundleOf(sim, 'w1')
    expect(bundle.world).toBe('w1')
    expect(bundle.commands).toHaveLength(2)
    expect(await stateText(await replayed(bundle))).toBe(await stateText(sim, 'w1'))
    expect(await stateText(await replayed(bundle, 2))).toBe(before)
    await expect(replayed(bundle, 9)).rejects.toThrow('--replay-until must be a command number from 1 to 3 (the bundle holds 2 commands).')
  })

  it('never holds a secret option: the replaying server gives its own JWT secret', async () => {
    const secret = 'a-jwt-secret-no-bundle-may-hold'
    const sim = createSimulator({ seed: 5, clock: '2026-01-01T00:00:00Z', auth: { secret, expiresIn: 600 } })
    await sim.ready
    const bundle = await bundleOf(sim)
    expect(JSON.stringify(bundle)).not.toContain(secret)
    expect(bundle.options.auth).toEqual({ expiresIn: 600 })
  })

  it("holds no scenario password and no secret of a command's query, and still replays the world", async () => {
    const team = 'Team-Secret-123'
    const own = 'Bobs-Own-Pass-9'
    const scenario = { accounts: { password: team, users: [{ username: 'bob', email: 'bob@example.com', password: own }], generate: { active: 2 } } }
    const sim = createSimulator({ seed: 5, clock: '2026-01-01T00:00:00Z', scenario })
    await sim.ready
    expect((await send(sim, 'PUT', '/core/products/prod-1001?api_key=sekrit-key-123', { price: 4 })).status).toBe(200)
    expect((await send(sim, 'POST', '/general/auth/login', { username: 'bob', password: own })).status).toBe(200)
    const bundle = await bundleOf(sim)
    for (const secret of [team, own, 'sekrit-key-123']) expect(JSON.stringify(bundle)).not.toContain(secret)
    const again = await replayed(bundle)
    expect(await stateText(again)).toBe(await stateText(sim))
    // Seeded before the first command: the hash is in `start`, so bob still logs in with his own password.
    expect((await send(again, 'POST', '/general/auth/login', { username: 'bob', password: own })).status).toBe(200)
  })

  it('refuses a bundle that does not replay to its world, saying which version took it', async () => {
    const sim = createSimulator({ seed: 5, clock: '2026-01-01T00:00:00Z' })
    await sim.ready
    expect((await send(sim, 'PUT', '/core/products/prod-1001', { price: 3 })).status).toBe(200)
    const bundle = await bundleOf(sim)
    const tampered = { ...bundle, version: '0.0.1', commands: [] }
    await expect(replayed(tampered)).rejects.toThrow(/^The bundle does not replay to the world it was taken of \(it was taken with multi-area-mock 0\.0\.1; this is /)
  })
})
