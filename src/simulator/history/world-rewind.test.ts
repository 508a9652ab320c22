import { afterEach, describe, expect, it } from 'vitest'
import { createSimulator } from '../create-simulator.js'
import { engineOf } from '../engine.js'
import { REWIND_CHECKPOINTS, WorldRewind } from './world-rewind.js'

const DEFAULTS = { ...REWIND_CHECKPOINTS }

afterEach(() => Object.assign(REWIND_CHECKPOINTS, DEFAULTS))

describe('WorldRewind', () => {
  it('keeps its saved worlds within their budget, fewer and further apart, and still rebuilds every point', async () => {
    const sim = createSimulator({ seed: 2, clock: '2026-01-01T00:00:00Z' })
    await sim.ready
    const states: string[] = []
    for (let i = 0; i < 60; i++) {
      states.push(JSON.stringify(sim.exportState()))
      const response = await sim.fetch(
        new Request('http://sim.test/core/products/prod-1003', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ stock: i }) }),
      )!
      expect(response.status).toBe(200)
    }
    const live = JSON.stringify(sim.exportState())
    const engine = engineOf(sim)
    const entry = engine.family.log.history!.of(null)!
    // Room for about three saved worlds.
    REWIND_CHECKPOINTS.bytes = JSON.stringify(entry.start).length * 3.5
    const rewind = new WorldRewind(engine, entry)
    for (const number of [60, 1, 33, 59, 2]) expect(JSON.stringify((await rewind.around(number)).before)).toBe(states[number - 1])
    const { count, bytes, every } = rewind.checkpoints
    expect(bytes).toBeLessThanOrEqual(REWIND_CHECKPOINTS.bytes)
    expect(every).toBeGreaterThan(DEFAULTS.every)
    // The start, and the few saved worlds the budget holds.
    expect(count).toBeLessThanOrEqual(4)
    expect(JSON.stringify(sim.exportState())).toBe(live)
  })
})
