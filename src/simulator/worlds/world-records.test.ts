import { describe, expect, it } from 'vitest'
import { builtinScenarios } from '../state/builtin-scenarios.js'
import { createSimulator } from '../create-simulator.js'
import type { ScenarioInput } from '../state/scenario-schema.js'
import { scenarioJsonSchema } from '../state/scenario-schema.js'
import { resolveScenario } from '../state/chosen-scenario.js'
import { describeRecords, formatCount, scenarioRecords, stateRecords, totalRecords } from './world-records.js'

const CLOCK = '2026-01-01T00:00:00Z'
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7'

/** Every knob and list a scenario has, each at a small count of its own. */
const everything: ScenarioInput = {
  accounts: { generate: { active: 3, inactive: 2, pending: 1 }, users: [{ username: 'ada.l', email: 'ada@example.com' }] },
  core: { products: [{ id: 'p-1', name: 'Pen', description: 'Blue.', price: 1.5, stock: 3 }] },
  quantum: { generate: { spin: { superposition: 2, collapsed: 1 }, polarization: { superposition: 1, collapsed: 3 } }, pairs: [{ entanglement_mode: 'spin' }] },
  general: {
    generate: 4,
    resources: [{ data: { title: 'Q3' } }],
    notifications: [{ id: 'n-1', recipients: [1], message: 'Hi', queued_at: CLOCK }],
  },
  ledger: {
    tokens: [{ symbol: 'AAA', name: 'A', decimals: 2, total_supply: '1000', contract_address: '0xc234090959Ac3F3Eb6d5D96cE8f8B979887e965D' }],
    validators: 'fixture',
    delegations: [{ delegator_address: ADDRESS, validator_address: '0x87148ec17A1bD256911257B51321a032a2826C8e', amount: '1' }],
  },
}

/** `sim.counts()` without the empty collections, as the counters report them. */
function seeded(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).filter(([, count]) => count > 0))
}

describe('scenarioRecords', () => {
  it.each([...Object.keys(builtinScenarios).map((name) => [name, name] as const), ['every knob and list', everything] as const])(
    'equals what %s seeds, per collection',
    async (_, scenario) => {
      const sim = createSimulator({ scenario, clock: CLOCK })
      await sim.ready
      expect(scenarioRecords(resolveScenario(builtinScenarios, scenario).scenario)).toEqual(seeded(sim.counts()))
    },
  )

  it('counts only the sections the simulator loads', async () => {
    const sim = createSimulator({ scenario: everything, clock: CLOCK, areas: ['admin', 'core'] })
    await sim.ready
    const mounted = new Set(['accounts', 'core'])
    expect(scenarioRecords(resolveScenario(builtinScenarios, everything).scenario, mounted)).toEqual(seeded(sim.counts()))
  })

  it('counts every generate knob of the scenario schema (a new one must be counted too)', () => {
    const knobs: string[][] = []
    const walk = (node: Record<string, any>, path: string[], underGenerate: boolean) => {
      if (underGenerate && node.type === 'integer') knobs.push(path)
      for (const [key, child] of Object.entries(node.properties ?? {})) walk(child as Record<string, any>, [...path, key], underGenerate || key === 'generate')
    }
    walk(scenarioJsonSchema(), [], false)
    expect(knobs.length).toBeGreaterThanOrEqual(8)
    const records = (path: string[], count: number) => {
      const scenario: Record<string, any> = {}
      let at = scenario
      for (const key of path.slice(0, -1)) at = at[key] ??= {}
      at[path.at(-1)!] = count
      return totalRecords(scenarioRecords(resolveScenario({}, scenario).scenario))
    }
    for (const path of knobs) expect(records(path, 1_000) - records(path, 0), path.join('.')).toBeGreaterThanOrEqual(1_000)
  })
})

describe('stateRecords', () => {
  it('equals the records of an exported world, kept points included', async () => {
    const sim = createSimulator({ scenario: everything, clock: CLOCK })
    await sim.ready
    const batch = [1, 2, 3].map((value) => ({ timestamp: CLOCK, value, sensor_id: 's1' }))
    expect(
      (await sim.fetch(new Request('http://x/core/ingest/data', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) }))!).status,
    ).toBe(200)
    expect(sim.counts().readings).toBe(3)
    expect(stateRecords(sim.exportState())).toEqual(seeded(sim.counts()))
  })

  it('counts lists only: anything else in a document counts nothing (validation refuses it later)', () => {
    expect(stateRecords(undefined)).toEqual({})
    expect(stateRecords({ accounts: { users: 'many' }, core: { readings: [{ points: 7 }, null] }, quantum: [] })).toEqual({})
    expect(stateRecords({ accounts: { users: new Array(5) }, quantum: { pairs: [{}, {}] } })).toEqual({ users: 5, particles: 4 })
  })
})

describe('describeRecords', () => {
  it('names the largest parts first, with thousands separated', () => {
    expect(describeRecords({ products: 24, users: 300_000, tokens: 10, validators: 8, resources: 40 })).toBe('300,000 users, 40 resources, 24 products, 10 tokens, …')
    expect(describeRecords({})).toBe('nothing')
    expect(formatCount(1_234_567)).toBe('1,234,567')
  })
})
