import type { RequestHandler } from 'msw'
import { noReadings, type Readings } from '../areas/core/index.js'
import { fromFetchRequest, toFetchResponse } from '../kernel/http/fetch-adapter.js'
import { parseOptions } from '../kernel/options/parse-options.js'
import type { Reply } from '../kernel/http/reply.js'
import type { SimRequest } from '../kernel/http/sim-request.js'
import type { ExampleSet } from '../kernel/openapi/examples.js'
import type { OpenApiDocument } from '../kernel/openapi/document.js'
import type { AnswerOptions } from '../kernel/routing/answer.js'
import type { Dispatch, Dispatcher } from '../kernel/routing/dispatcher.js'
import { SimClock, toSimClock } from '../kernel/time/sim-clock.js'
import { AccountStore } from '../world/accounts/account-store.js'
import { World } from '../world/world.js'
import { assembleAreas, routeTable } from './assembly.js'
import { builtinScenarios, DEFAULT_SCENARIO } from './builtin-scenarios.js'
import { type ChangeListener, ChangeListeners, mayWrite } from './change-listeners.js'
import { controlApi } from './control-features.js'
import { FaultInjector, type Faults } from './faults.js'
import { Journal } from './journal.js'
import type { RequestJournal } from './journal-entry.js'
import { describeSimulator, EXAMPLE_CLOCK, recordExamples } from './openapi.js'
import { type CheckedOptions, DEFAULT_SEED, reportInternalError, type SimulatorOptions, simulatorOptionsSchema } from './options.js'
import { type PipelineParts, servePipeline, type Upstream } from './request-pipeline.js'
import { ApiError } from '../kernel/errors/api-error.js'
import { errorResponse } from '../kernel/errors/error-response.js'
import type { ScenarioInput, WorldState } from './scenario-schema.js'
import { CONTROL_PREFIX, type MountedArea, type OpenApiOptions, type Simulator, type SimulatorDb } from './simulator.js'
import { type RequestRouter, SimulatorHandler } from './simulator-handler.js'
import { resolveScenario, seedFor, StateLifecycle } from './state-lifecycle.js'
import { SeededStates } from './seeded-states.js'
import { newPasswordKeys, type PasswordKeys } from '../kernel/crypto/password.js'
import { WorldLock } from './world-lock.js'
import { dbNotReady } from './not-ready.js'
import { type Routed, WorldRouter } from './world-router.js'
import { type CreateWorldOptions, WorldRegistry, type Worlds } from './worlds.js'
import { scenarioRecords, stateRecords } from './world-records.js'
import { admitted } from './world-budget.js'
import type { Family } from './world-family.js'

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

/** A routed request: the world and route that answer it, and the request as they read it. */
export interface Found extends Routed<SimulatorInstance> {
  request: SimRequest
}

/**
 * One simulator (or one world of a family): the parts assembled from the
 * options, and the public `Simulator` members handed to them.
 */
export class SimulatorInstance implements Simulator {
  readonly handlers: RequestHandler[]
  /** What the msw handler asks (the browser entry's handler, made before the simulator, asks it too). */
  readonly router: RequestRouter<Found>
  readonly readings: Readings
  readonly ready: Promise<void>
  readonly areas: MountedArea[]
  readonly dispatcher: Dispatcher
  readonly worldId: string | null

  readonly #options: SimulatorOptions
  readonly #world: World
  readonly #pipeline: PipelineParts
  readonly #faults: FaultInjector
  readonly #journal: Journal
  readonly #worlds: WorldRegistry<SimulatorInstance>
  readonly #router: WorldRouter<SimulatorInstance>
  readonly #state: StateLifecycle
  readonly #areaCounts: () => Record<string, number>
  readonly #changes = new ChangeListeners()
  readonly #seeded: SeededStates
  readonly #passwordKeys: PasswordKeys
  readonly #scenarios: Readonly<Record<string, ScenarioInput>>
  /** The sections this simulator loads (the accounts and the mounted areas'), for counting a scenario's records. */
  readonly #sectionKeys: ReadonlySet<string>
  #examples: Promise<ExampleSet> | undefined
  readonly #db: SimulatorDb
  /** Whether the first scenario is seeded (`sim.db` may be read), or why it failed. */
  #loaded: true | { failure: unknown } | undefined

  /** `checked`: `input` already checked with `simulatorOptionsSchema` (the browser entry's one parse), not parsed again. */
  constructor(input: SimulatorOptions, family?: Family<SimulatorInstance>, checked?: CheckedOptions) {
    this.#options = input
    const options = checked ?? parseOptions(simulatorOptionsSchema, input)
    this.worldId = family?.id ?? null
    this.#seeded = family?.seeded ?? new SeededStates()
    this.#passwordKeys = family?.passwordKeys ?? newPasswordKeys()
    const scenarios = { ...builtinScenarios, ...options.scenarios }
    this.#scenarios = scenarios
    const chosen = resolveScenario(scenarios, options.scenario ?? DEFAULT_SCENARIO)
    this.#world = new World({ seed: seedFor(options.seed, chosen.scenario), clock: toSimClock(options.clock), limits: options.limits, passwordKeys: this.#passwordKeys })
    this.#faults = new FaultInjector(this.#world.seed)
    this.#journal = new Journal({ ...options.journal, world: this.worldId })
    const { max, idle, maxRecords, maxTotalRecords, now } = options.worlds
    this.#worlds =
      family?.registry ?? new WorldRegistry<SimulatorInstance>(this, (id, create) => this.#newWorld(id, create), { max, idleMs: idle, maxRecords, maxTotalRecords, now })

    const assembled = assembleAreas(options, this.#world, new AccountStore(this.#world))
    this.#db = assembled.db
    this.areas = assembled.areas
    this.readings = assembled.api.readings ?? noReadings()
    this.#areaCounts = assembled.counts
    this.#sectionKeys = new Set(assembled.sections.map((section) => section.key))
    // An isolated world's size is checked from its scenario's declared counts before
    // anything is seeded: a refusal throws here and leaves nothing behind.
    if (family) family.registry.admit(family.id, scenarioRecords(chosen.scenario, this.#sectionKeys))
    const control = controlApi({ sim: this, journal: this.#journal, faults: this.#faults, worlds: this.#worlds, prefix: CONTROL_PREFIX })
    this.dispatcher = routeTable(assembled, control.routes)
    this.#router = new WorldRouter<SimulatorInstance>(this, this.#worlds, control.managing)
    const lock = new WorldLock()
    const answerOptions: AnswerOptions = {
      before: () => lock.idle(),
      bodyLimit: this.#world.limits.bodyBytes,
      onInternalError: options.onInternalError ?? reportInternalError,
      answered: (request, response) => {
        if (mayWrite(request.method)) this.#changes.emit({ cause: 'request', method: request.method, url: request.url, status: response.status })
      },
    }
    this.#pipeline = {
      faults: this.#faults,
      journal: this.#journal,
      clock: this.#world.clock,
      lock,
      answerOptions,
      areaAnswerOptions: { ...answerOptions, before: undefined, hold: lock.hold },
    }
    // The request is adapted once: routing and the answer read the same `SimRequest`.
    this.router = {
      route: (request: Request) => this.#route(fromFetchRequest(request)),
      answer: (found: Found, request: Request) => found.target.#serve(found.dispatch, found.request).then((reply) => toFetchResponse(reply, request)),
    }
    this.handlers = [new SimulatorHandler(this.router, `multi-area-mock (${this.areas.map((area) => area.id).join(', ')})`)]
    this.#state = new StateLifecycle({
      world: this.#world,
      sections: assembled.sections,
      scenarios,
      seed: options.seed,
      optionFaults: options.faults ?? [],
      faults: this.#faults,
      journal: this.#journal,
      lock,
      changes: this.#changes,
      seeded: this.#seeded,
    })
    this.ready = this.#state.start(chosen)
    // The caller may never await `ready`; a failure still surfaces on the first request (and on `sim.db`).
    this.ready.then(
      () => (this.#loaded = true),
      (failure: unknown) => (this.#loaded = { failure }),
    )
  }

  get scenario(): string {
    return this.#state.scenario
  }

  /** Throws until the first scenario is seeded, rather than show an empty world (`await sim.ready`). */
  get db(): SimulatorDb {
    if (this.#loaded === true) return this.#db
    throw dbNotReady(this.#loaded?.failure)
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
    const found = this.#route(fromFetchRequest(request))
    // biome-ignore lint/complexity/useOptionalChain: an optional chain cannot reach a private method (TS18030)
    return found && found.target.#serve(found.dispatch, found.request).then((reply) => toFetchResponse(reply, request))
  }

  reply(request: SimRequest): Promise<Reply> | undefined {
    const found = this.#router.route(request)
    // biome-ignore lint/complexity/useOptionalChain: an optional chain cannot reach a private method (TS18030)
    return found && found.target.#serve(found.dispatch, request)
  }

  /**
   * A proxied area's request (`serve --proxy`), answered by `upstream` through
   * the same pipeline as every request: the world it names (or the 404 of an
   * unknown one), that world's faults, latency and journal.
   */
  forward(request: SimRequest, dispatch: Dispatch, upstream: Upstream): Promise<Reply> {
    const world = this.#router.world(request)
    if (world instanceof ApiError) return Promise.resolve(errorResponse(world))
    return servePipeline(dispatch, request, world.#pipeline, upstream)
  }

  async openapi(options: OpenApiOptions = {}): Promise<OpenApiDocument> {
    this.#examples ??= recordExamples(new SimulatorInstance({ ...this.#options, seed: DEFAULT_SEED, scenario: DEFAULT_SCENARIO, clock: EXAMPLE_CLOCK, baseUrls: {}, root: [] }))
    return describeSimulator(this, await this.#examples, options)
  }

  reset(): Promise<void> {
    return this.#loads(this.#state.reset())
  }

  /** A load that succeeds makes `sim.db` readable, even after a first load that failed. */
  #loads(load: Promise<void>): Promise<void> {
    return load.then(() => void (this.#loaded = true))
  }

  loadScenario(scenario: string | ScenarioInput): Promise<void> {
    if (this.worldId === null) return this.#loads(this.#state.loadScenario(scenario))
    // An isolated world is limited like one being made (`worlds.maxRecords`), checked before seeding.
    return this.#loads(
      admitted(this.#worlds, this.worldId, scenarioRecords(resolveScenario(this.#scenarios, scenario).scenario, this.#sectionKeys), () => this.#state.loadScenario(scenario)),
    )
  }

  snapshot(): WorldState {
    return this.#state.snapshot()
  }

  restore(snapshot: WorldState): Promise<void> {
    return this.importState(snapshot)
  }

  exportState(): WorldState {
    return this.#state.exportState()
  }

  importState(state: unknown): Promise<void> {
    if (this.worldId === null) return this.#loads(this.#state.importState(state))
    return this.#loads(admitted(this.#worlds, this.worldId, stateRecords(state), () => this.#state.importState(state)))
  }

  listScenarios(): Array<{ name: string; description: string }> {
    return this.#state.listScenarios()
  }

  counts(): Record<string, number> {
    const counts = Object.fromEntries(Object.entries(this.#db).map(([name, collection]: [string, { count(): number }]) => [name, collection.count()]))
    return Object.assign(counts, this.#areaCounts())
  }

  onChange(listener: ChangeListener): () => void {
    return this.#changes.add(listener)
  }

  /** Which world and route answer a request, with the request itself. */
  #route(request: SimRequest): Found | undefined {
    const found = this.#router.route(request)
    return found && { target: found.target, dispatch: found.dispatch, request }
  }

  #serve(dispatch: Dispatch, request: SimRequest): Promise<Reply> {
    return servePipeline(dispatch, request, this.#pipeline)
  }

  /** A world of this family: the same options, with the scenario, seed and clock asked for. */
  #newWorld(id: string, create: CreateWorldOptions): SimulatorInstance {
    const options = this.#options
    // A clock object of your own is forked, so the world's clock moves alone.
    const clock = create.clock ?? (options.clock instanceof SimClock ? options.clock.fork() : options.clock)
    const worldOptions: SimulatorOptions = { ...options, scenario: create.scenario ?? options.scenario ?? DEFAULT_SCENARIO }
    if (create.seed !== undefined) worldOptions.seed = create.seed
    if (clock !== undefined) worldOptions.clock = clock
    return new SimulatorInstance(worldOptions, { registry: this.#worlds, id, seeded: this.#seeded, passwordKeys: this.#passwordKeys })
  }
}
