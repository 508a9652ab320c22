import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { builtinScenarios } from './builtin-scenarios.js'
import { createSimulator } from '../create-simulator.js'
import { lookupScenario } from './scenario-lookup.js'
import { resolveScenario } from './chosen-scenario.js'

const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf']
const unknown = (name: string) => `Unknown scenario "${name}". Available: ${Object.keys(builtinScenarios).join(', ')}.`

describe('scenario names are own names only', () => {
  it('lookupScenario finds registered scenarios and nothing an object inherits', () => {
    expect(lookupScenario(builtinScenarios, 'empty')).toBe(builtinScenarios.empty)
    for (const name of INHERITED) expect(lookupScenario(builtinScenarios, name), name).toBeUndefined()
  })

  it.each(INHERITED)('resolveScenario(%j) is an unknown scenario (ConfigError), not Object.prototype or a function', (name) => {
    expect(() => resolveScenario(builtinScenarios, name)).toThrow(new ConfigError(unknown(name)))
  })

  it.each(INHERITED)('createSimulator({ scenario: %j }) and loadScenario refuse it the same way', async (name) => {
    expect(() => createSimulator({ scenario: name })).toThrow(new ConfigError(unknown(name)))
    const sim = createSimulator({ scenario: 'empty', clock: '2026-01-01T00:00:00Z' })
    await sim.ready
    await expect(sim.loadScenario(name)).rejects.toThrow(new ConfigError(unknown(name)))
    expect(sim.scenario).toBe('empty')
  })

  it('still takes a scenario the caller registered under such a name', async () => {
    const sim = createSimulator({ scenarios: { constructor: { description: 'mine', seed: 9 } }, scenario: 'constructor' })
    await sim.ready
    expect([sim.scenario, sim.seed]).toEqual(['constructor', 9])
  })
})
