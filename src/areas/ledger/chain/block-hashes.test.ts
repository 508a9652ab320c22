import { describe, expect, it } from 'vitest'
import { createSimulator, ScenarioError } from '../../../index.js'
import { blockHash } from './chain.js'

const CLOCK = '2026-01-01T00:00:00.000Z'
const GIVEN = `0x${'c0ffee'.padEnd(64, '0')}`
const ledger = { genesis: { height: 100, time: '2025-12-31T23:59:00Z' }, block_hashes: [{ height: 110, hash: GIVEN }] }

async function status(sim: ReturnType<typeof createSimulator>) {
  return (await sim.fetch(new Request('http://x/ledger/v1/status'))!).json()
}

describe('block hashes given by a scenario (a recorded chain)', () => {
  it('answers the given hash at its height and the seed-derived one elsewhere, and keeps them through the state', async () => {
    const sim = createSimulator({ seed: 3, clock: CLOCK, scenario: { ledger } })
    expect(await status(sim)).toEqual({ status: 'active', network_height: 110, last_block_hash: GIVEN, timestamp: CLOCK })
    sim.clock.advance('6s')
    expect(await status(sim)).toMatchObject({ network_height: 111, last_block_hash: blockHash(3, 111) })

    const state = sim.exportState()
    expect(state.ledger.chain!.block_hashes).toEqual([{ height: 110, hash: GIVEN }])
    const restored = createSimulator({ seed: 4, clock: CLOCK, scenario: 'empty' })
    await restored.importState(state)
    expect(await status(restored)).toMatchObject({ network_height: 110, last_block_hash: GIVEN })
  })

  it('leaves a chain without them as it was: no block_hashes in its state', async () => {
    const sim = createSimulator({ seed: 3, clock: CLOCK, scenario: { ledger: { genesis: ledger.genesis } } })
    await sim.ready
    expect(Object.keys(sim.exportState().ledger.chain!)).toEqual(['chain_id', 'block_time_ms', 'genesis_height', 'genesis_time'])
    expect(await status(sim)).toMatchObject({ network_height: 110, last_block_hash: blockHash(3, 110) })
  })

  it('refuses two hashes for one height', () => {
    const twice = { ...ledger, block_hashes: [...ledger.block_hashes, { height: 110, hash: GIVEN }] }
    expect(() => createSimulator({ scenario: { ledger: twice } })).toThrow(ScenarioError)
  })
})
