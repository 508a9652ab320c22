import defaultScenario from '../../../scenarios/default.json' with { type: 'json' }
import emptyScenario from '../../../scenarios/empty.json' with { type: 'json' }
import entangledPairsScenario from '../../../scenarios/entangled-pairs.json' with { type: 'json' }
import pendingUsersScenario from '../../../scenarios/pending-users.json' with { type: 'json' }
import type { ScenarioInput } from './scenario-schema.js'

/**
 * The scenarios shipped in `scenarios/`, imported rather than read from disk so
 * they work in a browser and a test runner too.
 *
 * @example
 * createSimulator({ scenario: { ...builtinScenarios.default, seed: 7 } })
 */
export const builtinScenarios: Readonly<Record<string, ScenarioInput>> = {
  default: defaultScenario as ScenarioInput,
  empty: emptyScenario as ScenarioInput,
  'pending-users': pendingUsersScenario as ScenarioInput,
  'entangled-pairs': entangledPairsScenario as ScenarioInput,
}

/** The scenario a simulator starts with unless told otherwise. */
export const DEFAULT_SCENARIO = 'default'
