import { safeParse } from '../../kernel/http/validate.js'
import type { ClockSetting } from '../../kernel/time/sim-clock.js'
import type { WorldSection } from '../../world/section.js'
import type { World } from '../../world/world.js'
import { DEFAULT_SCENARIO } from './builtin-scenarios.js'
import type { ChangeListeners } from '../events/change-listeners.js'
import type { FaultRule } from '../faults/fault-rule.js'
import type { FaultInjector, FaultState } from '../faults/faults.js'
import type { Journal } from '../journal/journal.js'
import { ScenarioError } from '../../kernel/errors/scenario-error.js'
import { type ChosenScenario, resolveScenario, seedFor } from './chosen-scenario.js'
import { type SeededStates, seededKey } from './seeded-states.js'
import { type Scenario, type ScenarioInput, type WorldState, worldStateSchema } from './scenario-schema.js'
import { exportSections, importSections, restoreSections } from './state-sections.js'
import type { WorldLock } from '../worlds/world-lock.js'

/** Choosing a scenario, also imported from here by Node code written before it had its own file. */

/** One world as `StateLifecycle.save()` keeps it: its state, and what `reset()` returns to. */
export interface WorldSnapshot {
  scenario: string
  chosen: ChosenScenario | undefined
  initial: WorldState | undefined
  initialClock: ClockSetting | undefined
  initialFaults: FaultRule[]
  clock: ClockSetting
  faults: FaultState
  state: WorldState
}

/** What the lifecycle of one simulator's state works on. */
export interface LifecycleParts {
  world: World
  /** The shared accounts first, then the mounted areas' sections. */
  sections: readonly WorldSection[]
  /** Scenarios loadable by name: the built-ins and the `scenarios` option's. */
  scenarios: Readonly<Record<string, ScenarioInput>>
  /** The `seed` option. */
  seed: number | undefined
  /** The `faults` option, validated; a scenario's own rules follow them. */
  optionFaults: readonly FaultRule[]
  faults: FaultInjector
  journal: Journal
  lock: WorldLock
  changes: ChangeListeners
  /** The family's kept loads; without it every load seeds. */
  seeded?: SeededStates
  /**
   * `true` while the world's commands are stored (a file, replicas): every load
   * then seeds, as the replicas and replays do. A history kept in memory does
   * not count: a kept load is only ever used on a frozen clock at the instant
   * it was made (`seededKey`), so it gives the bytes seeding gives.
   */
  commandsKept?: () => boolean
}

/**
 * The state lifecycle of one simulator (or world): loading scenarios,
 * `reset()` back to the state right after the load, snapshots and the state
 * document. World changes run one at a time, once the requests inside the world
 * are done (`WorldLock`); every one tells the change listeners.
 *
 * @example
 * const lifecycle = new StateLifecycle(parts)
 * await lifecycle.start(resolveScenario(builtinScenarios, 'default'))
 * await lifecycle.reset()
 */
export class StateLifecycle {
  /** Name of the loaded scenario (`'custom'` for an object). */
  scenario = DEFAULT_SCENARIO
  readonly #parts: LifecycleParts
  #chosen: ChosenScenario | undefined
  #initialFaults: FaultRule[] = []
  #initial: WorldState | undefined
  #initialClock: ClockSetting | undefined

  constructor(parts: LifecycleParts) {
    this.#parts = parts
  }

  /** Loads the first scenario; its fault rules are in force at once, before seeding finishes. */
  start(chosen: ChosenScenario): Promise<void> {
    const clock = this.#parts.world.clock.save()
    // At once, not after seeding: rules set right after creation must not be replaced.
    void this.#startFaults(chosen.scenario)
    return this.#enqueue(() => this.#load(chosen, clock))
  }

  /** Journal emptied and fault rules back to the scenario's too, so each test starts clean. */
  reset(): Promise<void> {
    return this.#enqueue(async () => {
      if (this.#initialClock) this.#parts.world.clock.restore(this.#initialClock)
      if (this.#initial) await restoreSections(this.#parts.world, this.#parts.sections, this.#initial)
      await this.#restartRequests()
      this.#parts.changes.emit({ cause: 'reset' })
    })
  }

  /** Seeds the loaded scenario again, from its seed, as a load of it now would (a replica joining replicas does, at the instant they started). */
  reload(): Promise<void> {
    const chosen = this.#chosen
    if (chosen === undefined) return Promise.resolve()
    const clock = this.#parts.world.clock.save()
    return this.#enqueue(() => this.#load(chosen, clock))
  }

  loadScenario(scenario: string | ScenarioInput): Promise<void> {
    let chosen: ChosenScenario
    try {
      chosen = resolveScenario(this.#parts.scenarios, scenario)
    } catch (error) {
      return Promise.reject(error)
    }
    const clock = this.#parts.world.clock.save()
    return this.#enqueue(async () => {
      await this.#load(chosen, clock)
      await this.#startFaults(chosen.scenario)
    })
  }

  snapshot(): WorldState {
    return structuredClone(exportSections(this.#parts.world, this.#parts.sections, true))
  }

  exportState(): WorldState {
    return exportSections(this.#parts.world, this.#parts.sections, false)
  }

  importState(state: unknown): Promise<void> {
    const result = safeParse(worldStateSchema, state)
    if (!result.success) return Promise.reject(new ScenarioError('state document', result.error.issues))
    return this.#enqueue(async () => {
      await importSections(this.#parts.world, this.#parts.sections, result.data)
      this.#parts.changes.emit({ cause: 'state' })
    })
  }

  listScenarios(): Array<{ name: string; description: string }> {
    return Object.entries(this.#parts.scenarios).map(([name, scenario]) => ({ name, description: scenario.description ?? '' }))
  }

  /** `clock`: where the clock stood when the load was asked for; `reset()` returns there. */
  async #load({ name, scenario }: ChosenScenario, clock: ClockSetting): Promise<void> {
    const world = this.#parts.world
    const seed = seedFor(this.#parts.seed, scenario)
    const key = this.#parts.seeded && !this.#parts.commandsKept?.() ? seededKey(name, scenario, seed, world.clock.fixed ? world.clock.nowMs() : undefined) : undefined
    const kept = key === undefined ? undefined : this.#parts.seeded!.get(key)
    world.reseed(seed)
    if (kept) {
      for (const section of this.#parts.sections) section.configure?.((scenario as Record<string, unknown>)[section.key])
      await importSections(this.#parts.world, this.#parts.sections, kept, { trusted: true })
    } else {
      for (const section of this.#parts.sections) await section.load((scenario as Record<string, unknown>)[section.key])
    }
    this.scenario = name
    this.#chosen = { name, scenario }
    this.#initial = kept ?? exportSections(this.#parts.world, this.#parts.sections, true)
    if (key !== undefined && !kept) this.#parts.seeded!.set(key, this.#initial)
    this.#initialClock = clock
    this.#parts.changes.emit({ cause: 'scenario' })
  }

  /**
   * Everything that decides what this world answers and what `reset()` returns
   * to, as JSON: a replica joining replicas restores it instead of replaying
   * every command since the start (see `FamilySnapshot`).
   */
  save(): WorldSnapshot {
    const { world, faults } = this.#parts
    return {
      scenario: this.scenario,
      chosen: this.#chosen,
      initial: this.#initial,
      initialClock: this.#initialClock,
      initialFaults: this.#initialFaults,
      clock: world.clock.save(),
      faults: faults.save(),
      state: exportSections(this.#parts.world, this.#parts.sections, true),
    }
  }

  /** Puts this world back as `save()` found it (in the log's turn: nothing else writes meanwhile). */
  restore(saved: WorldSnapshot): Promise<void> {
    return this.#enqueue(async () => {
      await importSections(this.#parts.world, this.#parts.sections, structuredClone(saved.state) as WorldState)
      this.#settle(saved)
    })
  }

  /**
   * Puts back what `save()` kept besides the state (clock, fault rules, what
   * `reset()` returns to), leaving the world's records as they are: a state
   * file's settings line, replayed between the changes around it.
   */
  restoreSettings(saved: Omit<WorldSnapshot, 'state'>): Promise<void> {
    return this.#enqueue(async () => this.#settle(saved))
  }

  #settle(saved: Omit<WorldSnapshot, 'state'>): void {
    this.scenario = saved.scenario
    this.#chosen = saved.chosen
    this.#initial = saved.initial
    this.#initialClock = saved.initialClock
    this.#initialFaults = saved.initialFaults
    this.#parts.world.clock.restore(saved.clock)
    this.#parts.faults.load(saved.faults)
    this.#parts.changes.emit({ cause: 'state' })
  }

  /** The fault rules a scenario starts with: the `faults` option's, then its own. */
  #startFaults(scenario: Scenario): Promise<void> | undefined {
    this.#initialFaults = [...this.#parts.optionFaults, ...(scenario.faults ?? [])]
    return this.#restartRequests()
  }

  /** Empties the journal and puts the fault rules, their counts and draws back to the scenario's. */
  #restartRequests(): Promise<void> | undefined {
    this.#parts.faults.restart(this.#parts.world.seed, this.#initialFaults)
    // Replicas: the shared journal is emptied before the reset or load is answered (the promise never rejects).
    return this.#parts.journal.clear()
  }

  /** World changes run one at a time, once the requests inside the world are done; requests arriving meanwhile wait. */
  #enqueue(operation: () => Promise<void>): Promise<void> {
    return this.#parts.lock.exclusive(operation)
  }
}
