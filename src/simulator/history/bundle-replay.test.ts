import { describe, expect, it } from 'vitest'
import { replayBundle } from './bundle-replay.js'
import { bundleStart } from './bundle-start.js'
import { createSimulator } from '../create-simulator.js'
import { engineOf } from '../engine.js'
import { type WorldBundle, worldBundleSchema } from './world-bundle.js'

const CLOCK = '2026-01-01T00:00:00Z'

/** A bundle of a world with faults, a scenario by name and one write, as GET /__mock/bundle gives it. */
async function takenBundle(): Promise<WorldBundle> {
  const sim = createSimulator({ seed: 4, clock: CLOCK, scenario: 'default', faults: [{ route: '/core/products', method: 'GET', status: 503, times: 2, latency: [1, 5] }] })
  await sim.ready
  const changed = await sim.fetch(
    new Request('http://sim.test/core/products/prod-1001', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"price":12.5}' }),
  )!
  expect(changed.status).toBe(200)
  return worldBundleSchema.parse(await (await sim.fetch(new Request('http://sim.test/__mock/bundle'))!).json())
}

const replayOf = (bundle: WorldBundle) => {
  const sim = createSimulator({ ...(bundle.options as object), clock: 'system' })
  return replayBundle(engineOf(sim), bundle, undefined, 'The bundle b.json')
}

describe("a bundle's start, checked as PUT /__mock/state checks a state", () => {
  it('takes a start as a bundle holds it, unchanged', async () => {
    const { start } = await takenBundle()
    expect(JSON.parse(JSON.stringify(bundleStart(start)))).toEqual(start)
  })

  it.each([
    ['a user without an id', (start: Record<string, any>) => (start.state.accounts.users = [{ username: 'x' }]), /start\.state\.accounts\.users\.0\.\w+: /],
    ['a clock past the year 9999', (start: Record<string, any>) => (start.clock.frozenAt = 1e20), /start\.clock\.frozenAt: must fall within the years 0000 to 9999/],
    ['a fault rule that is none', (start: Record<string, any>) => (start.faults.rules = [{ status: 'soon' }]), /start\.faults\.rules\.0\.status: /],
    ['what a reset returns to, broken', (start: Record<string, any>) => (start.initial = { format: 2 }), /start\.initial\.format: /],
    ['no state at all', (start: Record<string, any>) => delete start.state, /start\.state: /],
  ])('refuses %s in one line, naming where', async (_, change, where) => {
    const bundle = await takenBundle()
    change(bundle.start as Record<string, any>)
    const error = (await replayOf(bundle).catch((caught: unknown) => caught)) as Error
    expect(error).toMatchObject({ name: 'ConfigError' })
    expect(error.message).toMatch(/^The bundle b\.json has a start that is no world this server takes \(as PUT \/__mock\/state checks it\): /)
    expect(error.message).toMatch(where)
    expect(error.message.split('\n')).toHaveLength(1)
  })
})

describe("a bundle's commands", () => {
  it.each([
    ['GET', '/__mock/bundle'],
    ['GET', '/core/products'],
    ['POST', '/nowhere'],
    ['POST', '/__mock/recording/save'],
  ])('refuses %s %s, which is no write, before applying anything', async (method, path) => {
    const bundle = await takenBundle()
    bundle.commands.push({ method, url: `http://127.0.0.1:4000${path}`, at: Date.parse(CLOCK) })
    await expect(replayOf(bundle)).rejects.toMatchObject({
      name: 'ConfigError',
      message: `The bundle b.json holds a command that is no write of this server: command 2, ${method} ${path} (a bundle only holds the writes a world was changed by).`,
    })
  })

  it('replays the writes it holds', async () => {
    expect(await replayOf(await takenBundle())).toEqual({ applied: 1, identical: true })
  })
})
