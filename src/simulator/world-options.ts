import { SimClock } from '../kernel/time/sim-clock.js'
import type { SimulatorOptions } from './options.js'
import { DEFAULT_SCENARIO } from './state/builtin-scenarios.js'
import type { CreateWorldOptions } from './worlds/worlds.js'

/**
 * The options an isolated world of a family is made with: the family's, with
 * the scenario, seed and clock `create` asks for. A clock object of your own
 * is forked, so the world's clock moves alone.
 *
 * @example
 * new SimulatorInstance(worldOptions(sim.options, { scenario: 'empty', seed: 7 }), family)
 */
export function worldOptions(options: SimulatorOptions, create: CreateWorldOptions): SimulatorOptions {
  const clock = create.clock ?? (options.clock instanceof SimClock ? options.clock.fork() : options.clock)
  const world: SimulatorOptions = { ...options, scenario: create.scenario ?? options.scenario ?? DEFAULT_SCENARIO }
  if (create.seed !== undefined) world.seed = create.seed
  if (clock !== undefined) world.clock = clock
  return world
}
