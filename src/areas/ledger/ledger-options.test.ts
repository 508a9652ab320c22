import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { createSimulator } from '../../simulator/create-simulator.js'
import { ledgerSettings } from './ledger-options.js'

describe('Area E options', () => {
  it("default to format mode and the scenario's block time", () => {
    expect(ledgerSettings({})).toEqual({ signatureMode: 'format', blockTimeMs: undefined })
  })

  it('take a signature mode and a block time in ms or as a duration', () => {
    expect(ledgerSettings({ signatureMode: 'eip712', blockTime: 250 })).toEqual({ signatureMode: 'eip712', blockTimeMs: 250 })
    expect(ledgerSettings({ blockTime: '2s' }).blockTimeMs).toBe(2000)
    expect(ledgerSettings({ blockTime: '1500' }).blockTimeMs).toBe(1500)
  })

  it('refuse anything else with a ConfigError naming the value, when the simulator is created', () => {
    for (const options of [{ signatureMode: 'eip-191' }, { blockTime: 0 }, { blockTime: '0.5ms' }, { blockTime: 'soon' }, { blockTime: -6000 }, { blockTime: true }]) {
      expect(() => createSimulator(options as never), JSON.stringify(options)).toThrow(ConfigError)
    }
    expect(() => createSimulator({ blockTime: 'soon' })).toThrow(/block time "soon"/)
    expect(() => createSimulator({ signatureMode: 'x' as never })).toThrow(/format, eip191, eip712/)
  })

  it("the block time option wins over the scenario's, and is what the state shows", async () => {
    const sim = createSimulator({ clock: '2026-01-01T00:00:00Z', blockTime: '1s', scenario: { ledger: { block_time: '10s' } } })
    await sim.ready
    expect(sim.exportState().ledger.chain).toMatchObject({ block_time_ms: 1000, genesis_height: 0, genesis_time: '2026-01-01T00:00:00.000Z' })
    const fromScenario = createSimulator({ clock: '2026-01-01T00:00:00Z', scenario: { ledger: { block_time: '10s', genesis: { height: 7 } } } })
    await fromScenario.ready
    expect(fromScenario.exportState().ledger.chain).toMatchObject({ block_time_ms: 10_000, genesis_height: 7 })
  })
})
