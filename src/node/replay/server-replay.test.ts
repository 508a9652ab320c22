import { describe, expect, it } from 'vitest'
import { planReplay, worldOptionsGiven } from './server-replay.js'

describe('the options a replay refuses', () => {
  it('names the world options given, as their flags, and lets the server options and a secret through', () => {
    expect(worldOptionsGiven({ port: 0, host: '127.0.0.1', controlToken: 'x', log: () => {} })).toEqual([])
    expect(worldOptionsGiven({ seed: 3, clock: '2026-01-01T00:00:00Z', journal: { size: 5 } })).toEqual(['--seed', '--clock'])
    // The limits are the most a bundle may ask for, not world options.
    expect(worldOptionsGiven({ worlds: { maxRecords: 5, idle: 60_000 }, limits: { bodyBytes: 10, ingestPoints: 3 }, ingestion: { window: 0 } })).toEqual(['--world-idle'])
    expect(worldOptionsGiven({ auth: { secret: 'team-secret' } })).toEqual([])
    expect(worldOptionsGiven({ auth: { secret: 'team-secret', expiresIn: 60 } })).toEqual(['--token-ttl'])
    expect(worldOptionsGiven({ scenario: 'empty', areas: ['core'] })).toEqual(['scenario', 'areas'])
    expect(worldOptionsGiven({ onInternalError: () => {} })).toEqual([])
  })
})

describe('planning a replay', () => {
  it('makes the simulator from the bundle options, a secret given added; refuses world options before reading the file', async () => {
    const { mkdtemp, rm, writeFile } = await import('node:fs/promises')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { createSimulator } = await import('../../simulator/create-simulator.js')
    const { engineOf } = await import('../../simulator/engine.js')
    const { takeBundle } = await import('../../simulator/history/bundle-take.js')
    const dir = await mkdtemp(join(tmpdir(), 'server-replay-'))
    try {
      const sim = createSimulator({ seed: 8, clock: '2026-01-01T00:00:00Z', auth: { expiresIn: 60 } })
      await sim.ready
      const file = join(dir, 'bundle.json')
      await writeFile(file, JSON.stringify(await takeBundle(engineOf(sim))))
      const plan = await planReplay(file, { port: 0, auth: { secret: 'team-secret' } })
      expect(plan.options).toMatchObject({ seed: 8, clock: '2026-01-01T00:00:00Z', auth: { expiresIn: 60, secret: 'team-secret' } })
      await expect(planReplay(join(dir, 'missing.json'), { seed: 8 })).rejects.toThrow(/leave out --seed \(/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
