import type { RequestHandler } from 'msw'
import { noReadings, type Readings } from '../areas/core/index.js'
import { fromFetchRequest, toFetchResponse } from '../kernel/http/fetch-adapter.js'
import { parseOptions } from '../kernel/options/parse-options.js'
import type { Reply } from '../kernel/http/reply.js'
import type { SimRequest } from '../kernel/http/sim-request.js'
import type { ExampleSet } from '../kernel/openapi/examples.js'
import type { OpenApiDocument } from '../kernel/openapi/document.js'
import type { Dispatch, Dispatcher } from '../kernel/routing/dispatcher.js'
import { type SimClock, toSimClock } from '../kernel/time/sim-clock.js'
import { AccountStore } from '../world/accounts/account-store.js'
import { World } from '../world/world.js'
import { assembleAreas, routeTable } from './assembly.js'
import { builtinScenarios, DEFAULT_SCENARIO } from './state/builtin-scenarios.js'
import { type ChangeListener, ChangeListeners } from './events/change-listeners.js'
import { Listeners } from './events/listeners.js'
import type { ScenarioFileEvent } from './events/scenario-file-event.js'
import { controlApi } from './control/control-features.js'
import { FaultInjector, type Faults } from './faults/faults.js'
import { Journal } from './journal/journal.js'
import type { RequestJournal } from './journal/journal-entry.js'
import { describeSimulator, EXAMPLE_CLOCK, recordExamples } from './openapi/openapi.js'
import { type CheckedOptions, DEFAULT_SEED, reportInternalError, type SimulatorOptions, simulatorOptionsSchema } from './options.js'
import type { PipelineParts, Upstream } from './pipeline/request-pipeline.js'
import type { ScenarioInput, WorldState } from './state/scenario-schema.js'
import { CONTROL_PREFIX, type MountedArea, type OpenApiOptions, type Simulator, type SimulatorDb } from './simulator.js'
import { type RequestRouter, SimulatorHandler } from './pipeline/simulator-handler.js'
import { resolveScenario, seedFor } from './state/chosen-scenario.js'
import { StateLifecycle } from './state/state-lifecycle.js'
import { WorldLock } from './worlds/world-lock.js'
import { WorldRouter } from './worlds/world-router.js'
import { type Found, WorldRequests } from './world-requests.js'
import type { CreateWorldOptions, Worlds } from './worlds/worlds.js'
import { WorldRegistry } from './worlds/world-registry.js'
import { scenarioRecords } from './worlds/world-records.js'
import { WorldLoads } from './world-loads.js'
import { worldOptions } from './world-options.js'
import type { Family } from './log/world-family.js'
import { FamilyShared } from './log/world-family.js'
import type { WorldWrites } from './log/world-writes.js'
import { familySeeds, worldPipeline } from './worlds/world-pipeline.js'

/** One simulator (or one world of a family): the parts assembled from the options, and the public `Simulator` members handed to them. */
export class SimulatorInstance implements Simulator {
  readonly handlers: RequestHandler[]
  /** What the msw handler asks (the browser entry's handler, made before the simulator, asks it too). */
  readonly router: RequestRouter<Found<SimulatorInstance>>
  readonly readings: Readings
  readonly ready: Promise<void>
  readonly areas: MountedArea[]
  readonly dispatcher: Dispatcher
  readonly worldId: string | null

  readonly options: SimulatorOptions
  readonly #world: World
  /** What this world's requests go through. */
  readonly pipeline: PipelineParts
  /** This world's writes, applied in the family's order. */
  readonly writes: WorldWrites
  readonly #faults: FaultInjector
  readonly #journal: Journal
  readonly #worlds: WorldRegistry<SimulatorInstance>
  readonly #requests: WorldRequests<SimulatorInstance>
  /** Its state's lifecycle (loads, resets, snapshots), read by the family's snapshots. */
  readonly lifecycle: StateLifecycle
  readonly #areaCounts: () => Record<string, number>
  readonly #changes = new ChangeListeners()
  readonly #scenarioFiles = new Listeners<ScenarioFileEvent>('a scenario-file listener')
  /** What the family's worlds share: kept loads, password keys, the source clock, the order of commands. */
  readonly #shared: FamilyShared<SimulatorInstance>
  #examples: Promise<ExampleSet> | undefined
  readonly #db: SimulatorDb
  readonly #loads: WorldLoads

  /** `checked`: `input` already checked with `simulatorOptionsSchema` (the browser entry's one parse), not parsed again. */
  constructor(input: SimulatorOptions, family?: Family<SimulatorInstance>, checked?: CheckedOptions) {
    this.options = input
    const options = checked ?? parseOptions(simulatorOptionsSchema, input)
    this.worldId = family?.id ?? null
    this.#shared = family?.shared ?? new FamilyShared(() => this.#worlds)
    const { time, log } = this.#shared
    const scenarios = { ...builtinScenarios, ...options.scenarios }
    const chosen = resolveScenario(scenarios, options.scenario ?? DEFAULT_SCENARIO)
    this.#world = new World({
      seed: seedFor(options.seed, chosen.scenario),
      clock: toSimClock(options.clock, time.now),
      sealed: (text) => this.#shared.sealed.get(text),
      limits: options.limits,
      passwordKeys: this.#shared.passwordKeys,
    })
    this.#faults = new FaultInjector(this.#world.seed)
    this.#journal = new Journal({ ...options.journal, world: this.worldId, share: this.#shared.journals })
    const { max, idle, maxRecords, maxTotalRecords, now } = options.worlds
    this.#worlds =
      family?.registry ??
      new WorldRegistry<SimulatorInstance>(this, (id, create) => this.#newWorld(id, create), { max, idleMs: idle, maxRecords, maxTotalRecords, now: now ?? time.now })

    const assembled = assembleAreas(options, this.#world, new AccountStore(this.#world))
    this.#db = assembled.db
    this.areas = assembled.areas
    this.readings = assembled.api.readings ?? noReadings()
    this.#areaCounts = assembled.counts
    const sectionKeys = new Set(assembled.sections.map((section) => section.key))
    // An isolated world's size is checked from its scenario's declared counts before
    // anything is seeded: a refusal throws here and leaves nothing behind.
    if (family) family.registry.admit(family.id, scenarioRecords(chosen.scenario, sectionKeys))
    const control = controlApi({ sim: this, journal: this.#journal, faults: this.#faults, worlds: this.#worlds, prefix: CONTROL_PREFIX, family: this.#shared })
    this.dispatcher = routeTable(assembled, control.routes)
    this.#requests = new WorldRequests(new WorldRouter<SimulatorInstance>(this, this.#worlds, control.managing), {
      catchUp: () => this.#shared.log.catchUp(),
      onInternalError: (error, request) => (this.options.onInternalError ?? reportInternalError)(error, request),
    })
    const lock = new WorldLock()
    this.pipeline = worldPipeline({
      worldId: this.worldId,
      world: this.#world,
      lock,
      dispatcher: () => this.dispatcher,
      shared: this.#shared,
      seeds: familySeeds(options.seed, scenarios),
      faults: this.#faults,
      journal: this.#journal,
      changes: this.#changes,
      onInternalError: options.onInternalError ?? reportInternalError,
    })
    this.writes = this.pipeline.writes
    // The request is adapted once: routing and the answer read the same `SimRequest`.
    this.router = {
      route: (request: Request) => this.#requests.route(fromFetchRequest(request)),
      answer: (found: Found<SimulatorInstance>, request: Request) => this.#requests.serve(found).then((reply) => toFetchResponse(reply, request)),
    }
    this.handlers = [new SimulatorHandler(this.router, `multi-area-mock (${this.areas.map((area) => area.id).join(', ')})`)]
    this.lifecycle = new StateLifecycle({
      world: this.#world,
      sections: assembled.sections,
      scenarios,
      seed: options.seed,
      optionFaults: options.faults ?? [],
      faults: this.#faults,
      journal: this.#journal,
      lock,
      changes: this.#changes,
      seeded: this.#shared.seeded,
      commandsKept: () => log.stores,
    })
    this.#loads = new WorldLoads({ lifecycle: this.lifecycle, worldId: this.worldId, worlds: this.#worlds, scenarios, sectionKeys })
    this.ready = this.#loads.start(chosen)
  }

  /** What the family's worlds share, its order of commands among it, which the server keeps in a store (`--state-file`, `--store`). */
  get family(): FamilyShared<SimulatorInstance> {
    return this.#shared
  }

  get scenario(): string {
    return this.lifecycle.scenario
  }

  /** Throws until the first scenario is seeded, rather than show an empty world (`await sim.ready`). */
  get db(): SimulatorDb {
    return this.#loads.readable(this.#db)
  }

  get seed(): number {
    return this.#world.seed
  }

  get clock(): SimClock {
    return this.#world.clock
  }

  get journal(): RequestJournal {
    return this.#journal
  }

  get faults(): Faults {
    return this.#faults
  }

  get worlds(): Worlds<Simulator> {
    return this.#worlds
  }

  get clockFixed(): boolean {
    return this.#world.clock.fixed
  }

  now(): string {
    return this.#world.now()
  }

  fetch(request: Request): Promise<Response> | undefined {
    return this.reply(fromFetchRequest(request))?.then((reply) => toFetchResponse(reply, request))
  }

  reply(request: SimRequest): Promise<Reply> | undefined {
    const found = this.#requests.route(request)
    return found && this.#requests.serve(found)
  }

  /** A proxied area's request (`serve --proxy`), answered by `upstream` through the pipeline: the world it names (or its 404), its faults, latency and journal. */
  forward(request: SimRequest, dispatch: Dispatch, upstream: Upstream): Promise<Reply> {
    return this.#requests.forward(request, dispatch, upstream)
  }

  async openapi(options: OpenApiOptions = {}): Promise<OpenApiDocument> {
    this.#examples ??= recordExamples(new SimulatorInstance({ ...this.options, seed: DEFAULT_SEED, scenario: DEFAULT_SCENARIO, clock: EXAMPLE_CLOCK, baseUrls: {}, root: [] }))
    return describeSimulator(this, await this.#examples, options)
  }

  reset(): Promise<void> {
    return this.#loads.reset()
  }

  /** Seeds the starting scenario again as at instant `at`, in the log's turn: a replica joining others seeds what the first one did. */
  restartAt(at: number): Promise<void> {
    return this.#shared.log.serial(() => this.#shared.time.during(at, () => this.#loads.reload()))
  }

  loadScenario(scenario: string | ScenarioInput): Promise<void> {
    return this.#loads.loadScenario(scenario)
  }

  snapshot(): WorldState {
    return this.lifecycle.snapshot()
  }

  restore(snapshot: WorldState): Promise<void> {
    return this.importState(snapshot)
  }

  exportState(): WorldState {
    return this.lifecycle.exportState()
  }

  importState(state: unknown): Promise<void> {
    return this.#loads.importState(state)
  }

  listScenarios(): Array<{ name: string; description: string }> {
    return this.lifecycle.listScenarios()
  }

  counts(): Record<string, number> {
    const counts = Object.fromEntries(Object.entries(this.#db).map(([name, collection]: [string, { count(): number }]) => [name, collection.count()]))
    return Object.assign(counts, this.#areaCounts())
  }

  onChange(listener: ChangeListener): () => void {
    return this.#changes.add(listener)
  }

  onScenarioFile(listener: (event: ScenarioFileEvent) => void): () => void {
    return this.#scenarioFiles.add(listener)
  }

  reportScenarioFile(event: ScenarioFileEvent): void {
    this.#scenarioFiles.emit(event)
  }

  /** A world of this family: the same options, with the scenario, seed and clock asked for. */
  #newWorld(id: string, create: CreateWorldOptions): SimulatorInstance {
    return new SimulatorInstance(worldOptions(this.options, create), { registry: this.#worlds, id, shared: this.#shared })
  }
}
