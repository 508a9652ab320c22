import type { CheckedOptions, SimulatorOptions } from './options.js'
import type { Simulator } from './simulator.js'
import { SimulatorInstance } from './simulator-instance.js'

export type { Simulator } from './simulator.js'
export type { SimulatorOptions } from './options.js'

/**
 * Creates an isolated simulator. Synchronous so it can feed `setupServer`
 * directly; an invalid option or scenario throws `ConfigError` at once, and
 * seeding finishes in the background: requests wait for it, and `sim.db`
 * throws until it is done (`await sim.ready` first).
 *
 * @example
 * const sim = createSimulator({ seed: 7, areas: ['admin'], baseUrls: { admin: 'https://admin.test' } })
 */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  return new SimulatorInstance(options)
}

/**
 * A simulator from options checked already (`simulatorOptionsSchema`), not
 * parsed again: the browser entry checks its options once. Not exported from
 * any package entry.
 *
 * @example
 * const sim = checkedSimulator(options, parseOptions(simulatorOptionsSchema, options))
 */
export function checkedSimulator(options: SimulatorOptions, checked: CheckedOptions): SimulatorInstance {
  return new SimulatorInstance(options, undefined, checked)
}
