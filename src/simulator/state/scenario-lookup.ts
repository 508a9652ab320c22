import type { ScenarioInput } from './scenario-schema.js'

/**
 * The scenario registered under `name`, or `undefined`: an own-property
 * lookup, so names that only exist on `Object.prototype` (`__proto__`,
 * `constructor`, `toString`...) are unknown scenarios rather than functions or
 * the prototype object handed to the scenario schema. Every scenario name that
 * comes from a request, a flag or a browser option is looked up here.
 *
 * @example
 * lookupScenario(builtinScenarios, 'empty') // { description: ..., ... }
 * lookupScenario(builtinScenarios, 'constructor') // undefined
 */
export function lookupScenario(registry: Readonly<Record<string, ScenarioInput>>, name: string): ScenarioInput | undefined {
  return Object.hasOwn(registry, name) ? registry[name] : undefined
}
