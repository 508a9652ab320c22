import { ALL_AREAS } from '../../areas/registry.js'
import type { Dispatcher } from '../../kernel/routing/dispatcher.js'
import { accountsRecording } from '../../world/accounts/accounts-recording.js'
import { builtinScenarios, DEFAULT_SCENARIO } from '../state/builtin-scenarios.js'
import { Recorder } from './recorder.js'
import { lookupScenario } from '../state/scenario-lookup.js'
import type { ScenarioInput } from '../state/scenario-schema.js'

/** What a recorder is made from: a route table, the areas recorded, and the scenario it records into. */
export interface RecorderSetup {
  /** Matches traffic to routes (a simulator's `dispatcher`). */
  dispatcher: Dispatcher
  /** Ids of the areas whose answers are recorded (`--proxy`'s areas, or every area). */
  areas: readonly string[]
  /** The start scenario: a name (built-in or in `scenarios`) or a document. Default `default`. */
  scenario?: string | ScenarioInput | undefined
  scenarios?: Readonly<Record<string, ScenarioInput>> | undefined
  seed?: number | undefined
  description: string
}

/**
 * A `Recorder` for some of this package's areas, merging into the start scenario.
 *
 * @example
 * const recorder = recorderFor({ dispatcher: sim.dispatcher, areas: ['admin', 'core'], scenario: 'default', seed: 1, description: 'Recorded from staging' })
 */
export function recorderFor(setup: RecorderSetup): Recorder {
  const chosen = setup.scenario ?? DEFAULT_SCENARIO
  const base = typeof chosen === 'string' ? lookupScenario({ ...builtinScenarios, ...setup.scenarios }, chosen) : chosen
  if (base === undefined) throw new Error(`Unknown scenario "${String(chosen)}".`)
  const areas = ALL_AREAS.filter((area) => setup.areas.includes(area.id))
  return new Recorder({
    dispatcher: setup.dispatcher,
    areas,
    shared: [accountsRecording],
    base,
    description: setup.description,
    ...(setup.seed === undefined ? {} : { seed: setup.seed }),
  })
}

/**
 * The summary line of each area, as the CLI prints them.
 *
 * @example
 * recordingSummaryLines(recorder.summary()) // ['admin: 51 records kept (accounts.users 51); 1 answer not mapped: GET /admin/x (404): ...']
 */
export function recordingSummaryLines(summaries: ReturnType<Recorder['summary']>): string[] {
  return summaries.map((summary) => {
    const kept = Object.entries(summary.kept)
    const total = kept.reduce((sum, [, count]) => sum + count, 0)
    const parts = [`${summary.area}: ${total} record${total === 1 ? '' : 's'} kept${kept.length ? ` (${kept.map(([what, count]) => `${what} ${count}`).join(', ')})` : ''}`]
    parts.push(`${summary.unmapped} answer${summary.unmapped === 1 ? '' : 's'} not mapped${summary.examples.length ? `: ${summary.examples.join('; ')}` : ''}`)
    if (summary.left.length) parts.push(`left out: ${summary.left.slice(0, 3).join('; ')}${summary.left.length > 3 ? ` and ${summary.left.length - 3} more` : ''}`)
    return parts.join('; ')
  })
}
