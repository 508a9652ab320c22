import { ConfigError } from '../kernel/errors/config-error.js'
import { ScenarioError } from '../kernel/errors/scenario-error.js'
import { type ScenarioInput, scenarioSchema } from '../simulator/state/scenario-schema.js'
import { safeParse } from '../kernel/http/validate.js'
import { lookupScenario } from '../simulator/state/scenario-lookup.js'
import { type FetchedScenario, fetchScenario, isScenarioUrl } from './scenario-fetch.js'

/** A scenario resolved to a name the simulator can load and its content. */
export interface NamedScenario {
  name: string
  scenario: ScenarioInput
}

/**
 * Turns the browser entry's `scenario` option into a named scenario: a
 * registered name as is, a scenario object as `'custom'`, a URL (or a string
 * with a `/` or ending in `.json`) fetched and validated, named after its file
 * (`/mocks/team.json` is `team`), like the CLI names scenario files.
 * Fetch failures and invalid content throw a one-line error naming the URL.
 *
 * @example
 * await resolveScenario('/mocks/team.json', builtinScenarios, fetch) // { name: 'team', scenario: {...} }
 */
export async function resolveScenario(
  option: string | URL | ScenarioInput | undefined,
  registry: Readonly<Record<string, ScenarioInput>>,
  fetchJson: typeof fetch,
  base?: string,
): Promise<NamedScenario> {
  if (isScenarioUrl(option)) return checkFetchedScenario(await fetchScenario(option, fetchJson, base))
  return namedScenario(option, registry)
}

/**
 * A scenario option that is not a URL: a registered name (own names only), or
 * a scenario object as `'custom'`; an unknown name throws a `ConfigError` listing the known ones.
 *
 * @example
 * namedScenario('pending-users', builtinScenarios) // { name: 'pending-users', scenario: {...} }
 */
export function namedScenario(option: string | ScenarioInput | undefined, registry: Readonly<Record<string, ScenarioInput>>): NamedScenario {
  const value = option ?? 'default'
  if (typeof value !== 'string') return { name: 'custom', scenario: value }
  const scenario = lookupScenario(registry, value)
  if (!scenario) throw new ConfigError(`Unknown scenario "${value}". Available: ${Object.keys(registry).join(', ')}.`)
  return { name: value, scenario }
}

/**
 * A fetched scenario file checked against the scenario schema; a
 * `ScenarioError` naming the URL and each problem otherwise, and a
 * `ConfigError` when it could not be fetched or read as JSON.
 *
 * @example
 * checkFetchedScenario(await fetchScenario('/mocks/team.json', fetch, location.href)) // { name: 'team', scenario: {...} }
 */
export function checkFetchedScenario(fetched: FetchedScenario): NamedScenario {
  if ('problem' in fetched) throw new ConfigError(fetched.problem)
  const result = safeParse(scenarioSchema, fetched.json)
  if (!result.success) throw new ScenarioError(`scenario ${fetched.url}`, result.error.issues)
  return { name: fetched.name, scenario: fetched.json as ScenarioInput }
}
