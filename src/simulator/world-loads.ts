import { dbNotReady } from './pipeline/not-ready.js'
import { resolveScenario } from './state/chosen-scenario.js'
import type { ScenarioInput } from './state/scenario-schema.js'
import type { ChosenScenario } from './state/chosen-scenario.js'
import type { StateLifecycle } from './state/state-lifecycle.js'
import { admitted } from './worlds/world-budget.js'
import type { RecordCounts } from './worlds/world-records.js'
import { scenarioRecords, stateRecords } from './worlds/world-records.js'

/** What `WorldLoads` works with. */
export interface LoadParts {
  lifecycle: StateLifecycle
  /** The isolated world's id; `null` for the simulator itself, whose loads are not limited. */
  worldId: string | null
  /** The family's worlds, which admit an isolated world's records (`worlds.maxRecords`). */
  worlds: { admit(id: string, counts: RecordCounts): () => void }
  /** Scenarios loadable by name, to count a scenario's records before it is seeded. */
  scenarios: Readonly<Record<string, ScenarioInput>>
  /** The sections this simulator loads (the accounts and the mounted areas'), for counting a scenario's records. */
  sectionKeys: ReadonlySet<string>
}

/**
 * The loads of one world's state as the public `Simulator` runs them: an
 * isolated world is limited like one being made (`worlds.maxRecords`), checked
 * before seeding; and `sim.db` may be read once a load has succeeded (even
 * after a first one that failed), not before.
 *
 * @example
 * const loads = new WorldLoads({ lifecycle, worldId: null, worlds, scenarios, sectionKeys })
 * await loads.start(resolveScenario(scenarios, 'default'))
 * loads.readable(db) // db, or throws while the first scenario is not seeded
 */
export class WorldLoads {
  readonly #parts: LoadParts
  /** Whether the first scenario is seeded (`sim.db` may be read), or why it failed. */
  #loaded: true | { failure: unknown } | undefined

  constructor(parts: LoadParts) {
    this.#parts = parts
  }

  /** Loads the first scenario: `sim.ready`. */
  start(chosen: ChosenScenario): Promise<void> {
    const ready = this.#parts.lifecycle.start(chosen)
    // The caller may never await `ready`; a failure still surfaces on the first request (and on `sim.db`).
    ready.then(
      () => (this.#loaded = true),
      (failure: unknown) => (this.#loaded = { failure }),
    )
    return ready
  }

  /** `db` once the first scenario is seeded; throws until then, rather than show an empty world. */
  readable<T>(db: T): T {
    if (this.#loaded === true) return db
    throw dbNotReady(this.#loaded?.failure)
  }

  reset(): Promise<void> {
    return this.#loads(this.#parts.lifecycle.reset())
  }

  /** Seeds the starting scenario again (the caller puts it in the log's turn and instant). */
  reload(): Promise<void> {
    return this.#loads(this.#parts.lifecycle.reload())
  }

  loadScenario(scenario: string | ScenarioInput): Promise<void> {
    const { lifecycle, worldId, worlds, scenarios, sectionKeys } = this.#parts
    if (worldId === null) return this.#loads(lifecycle.loadScenario(scenario))
    return this.#loads(admitted(worlds, worldId, scenarioRecords(resolveScenario(scenarios, scenario).scenario, sectionKeys), () => lifecycle.loadScenario(scenario)))
  }

  importState(state: unknown): Promise<void> {
    const { lifecycle, worldId, worlds } = this.#parts
    if (worldId === null) return this.#loads(lifecycle.importState(state))
    return this.#loads(admitted(worlds, worldId, stateRecords(state), () => lifecycle.importState(state)))
  }

  /** A load that succeeds makes `sim.db` readable, even after a first load that failed. */
  #loads(load: Promise<void>): Promise<void> {
    return load.then(() => void (this.#loaded = true))
  }
}
