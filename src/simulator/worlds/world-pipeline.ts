import type { Dispatcher } from '../../kernel/routing/dispatcher.js'
import type { AnswerOptions } from '../../kernel/routing/answer.js'
import type { World } from '../../world/world.js'
import { DEFAULT_SEED } from '../options.js'
import type { ScenarioInput } from '../state/scenario-schema.js'
import type { CommandTarget, FamilyShared } from '../log/world-family.js'
import { type ChangeListeners, mayWrite } from '../events/change-listeners.js'
import type { FaultInjector } from '../faults/faults.js'
import type { Journal } from '../journal/journal.js'
import type { SimulatorOptions } from '../options.js'
import type { PipelineParts } from '../pipeline/request-pipeline.js'
import type { WorldLock } from './world-lock.js'
import { WorldWrites } from '../log/world-writes.js'

/** What one world answers with. */
export interface WorldPipelineParts {
  worldId: string | null
  world: World
  lock: WorldLock
  dispatcher: () => Dispatcher
  /** What the family shares: its order of commands, source clock and sealed passwords. */
  shared: FamilyShared<CommandTarget>
  faults: FaultInjector
  journal: Journal
  changes: ChangeListeners
  onInternalError: NonNullable<SimulatorOptions['onInternalError']>
  /** Seeds a world of the family may be seeded with: kept passwords are sealed for each. */
  seeds: readonly number[]
}

/**
 * The seeds a world of a family may be seeded with: the option's, the default
 * and every scenario's. A kept password is sealed for each, so whichever world
 * hashes it (one a command makes, a state put with its seed) finds its key.
 *
 * @example
 * familySeeds(7, builtinScenarios) // [7, 1, …]
 */
export function familySeeds(option: number | undefined, scenarios: Readonly<Record<string, ScenarioInput>>): number[] {
  const seeds = [option, DEFAULT_SEED, ...Object.values(scenarios).map((scenario) => scenario.seed)]
  return [...new Set(seeds.filter((seed): seed is number => typeof seed === 'number'))]
}

/**
 * The pipeline of one world (its faults, journal, lock and writes), as
 * `servePipeline` runs every request through it.
 *
 * @example
 * const pipeline = worldPipeline({ worldId: null, world, lock, dispatcher: () => table, shared, seeds: [1], faults, journal, changes, onInternalError })
 */
export function worldPipeline(parts: WorldPipelineParts): PipelineParts {
  const { lock, changes } = parts
  const answerOptions: AnswerOptions = {
    before: () => lock.idle(),
    bodyLimit: parts.world.limits.bodyBytes,
    onInternalError: parts.onInternalError,
    answered: (request, response) => {
      if (mayWrite(request.method)) changes.emit({ cause: 'request', method: request.method, url: request.url, status: response.status })
    },
  }
  const { worldId, world, dispatcher, seeds } = parts
  const { log, time, sealed } = parts.shared
  return {
    writes: new WorldWrites({ worldId, world, lock, dispatcher, log, now: time.now, answerOptions, seeds, sealed, faults: parts.faults }),
    faults: parts.faults,
    journal: parts.journal,
    clock: world.clock,
    lock,
    answerOptions,
    areaAnswerOptions: { ...answerOptions, before: undefined, hold: lock.hold },
  }
}
