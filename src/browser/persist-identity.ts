import type { SimulatorOptions } from '../simulator/options.js'
import type { ScenarioInput } from '../simulator/state/scenario-schema.js'

/**
 * What a saved world must have been started with to be restored: the seed,
 * the scenario (its name and a hash of its content, so an edited scenario file
 * behind the same URL starts fresh), the clock option and the mounted areas.
 *
 * @example
 * persistIdentity({ seed: 1, clock: '2026-01-01T00:00:00Z' }, 'default', builtinScenarios.default)
 */
export function persistIdentity(options: Pick<SimulatorOptions, 'seed' | 'clock' | 'areas'>, scenarioName: string, scenario: ScenarioInput): string {
  return JSON.stringify({
    seed: options.seed ?? null,
    scenario: scenarioName,
    content: fnv1a(JSON.stringify(scenario)),
    clock: typeof options.clock === 'string' ? options.clock : options.clock ? 'custom' : 'system',
    areas: options.areas ? [...options.areas].sort() : 'all',
  })
}

/** 32-bit FNV-1a as 8 hex digits: a change detector, not a security measure. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, '0')
}
