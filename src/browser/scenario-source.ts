import { ConfigError } from '../kernel/errors/config-error.js'
import { ScenarioError } from '../kernel/errors/scenario-error.js'
import { type ScenarioInput, scenarioSchema } from '../simulator/scenario-schema.js'
import { safeParse } from '../kernel/http/validate.js'
import { lookupScenario } from '../simulator/scenario-lookup.js'

/** A scenario resolved to a name the simulator can load and its content. */
export interface NamedScenario {
  name: string
  scenario: ScenarioInput
}

/** `true` when a `scenario` string is a URL to fetch rather than a scenario name. */
export function looksLikeUrl(value: string): boolean {
  return value.includes('/') || value.endsWith('.json')
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
  const value = option ?? 'default'
  if (typeof value === 'string' && !looksLikeUrl(value)) {
    const scenario = lookupScenario(registry, value)
    if (!scenario) throw new ConfigError(`Unknown scenario "${value}". Available: ${Object.keys(registry).join(', ')}.`)
    return { name: value, scenario }
  }
  if (typeof value !== 'string' && !(value instanceof URL)) return { name: 'custom', scenario: value }

  const url = new URL(value, base)
  let response: Response
  try {
    response = await fetchJson(url, { headers: { accept: 'application/json' } })
  } catch (error) {
    throw new ConfigError(`Cannot load scenario ${url.href}: ${error instanceof Error ? error.message : String(error)}.`)
  }
  if (!response.ok) throw new ConfigError(`Cannot load scenario ${url.href}: HTTP ${response.status}.`)
  let json: unknown
  try {
    json = await response.json()
  } catch (error) {
    throw new ConfigError(`Scenario ${url.href} is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`)
  }
  const result = safeParse(scenarioSchema, json)
  if (!result.success) throw new ScenarioError(`scenario ${url.href}`, result.error.issues)
  const file = url.pathname.split('/').pop() ?? ''
  return { name: decodeURIComponent(file.replace(/\.json$/i, '')) || 'custom', scenario: json as ScenarioInput }
}
