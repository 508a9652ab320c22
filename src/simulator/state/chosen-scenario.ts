import { safeParse } from '../../kernel/http/validate.js'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { ScenarioError } from '../../kernel/errors/scenario-error.js'
import { DEFAULT_SEED } from '../options.js'
import { lookupScenario } from './scenario-lookup.js'
import { type Scenario, type ScenarioInput, scenarioSchema } from './scenario-schema.js'

/** A scenario picked by name (or given as an object: `custom`), validated. */
export interface ChosenScenario {
  name: string
  scenario: Scenario
}

/**
 * A scenario by name from `scenarios`, or an object as given, validated; an
 * unknown name (`__proto__` and the like included: own names only) is a
 * `ConfigError` listing the known ones, an invalid scenario a `ScenarioError`.
 *
 * @example
 * resolveScenario(builtinScenarios, 'empty') // { name: 'empty', scenario: { ... } }
 */
export function resolveScenario(scenarios: Readonly<Record<string, ScenarioInput>>, scenario: string | ScenarioInput): ChosenScenario {
  const name = typeof scenario === 'string' ? scenario : 'custom'
  const input = typeof scenario === 'string' ? lookupScenario(scenarios, scenario) : scenario
  if (input === undefined) {
    throw new ConfigError(`Unknown scenario "${scenario}". Available: ${Object.keys(scenarios).join(', ')}.`)
  }
  const result = safeParse(scenarioSchema, input)
  if (!result.success) throw new ScenarioError(`scenario "${name}"`, result.error.issues)
  return { name, scenario: result.data }
}

/** The seed a scenario loads with: the option's, else the scenario's, else 1 (D24). */
export function seedFor(option: number | undefined, scenario: Scenario): number {
  return option ?? scenario.seed ?? DEFAULT_SEED
}
