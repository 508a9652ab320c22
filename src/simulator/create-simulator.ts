import type { CoreCollections } from '../areas/core/index.js'
import type { GeneralCollections } from '../areas/general/index.js'
import type { LedgerCollections } from '../areas/ledger/index.js'
import type { QuantumCollections } from '../areas/quantum/index.js'
import type { RequestHandler } from 'msw'
import type { AreaFactory, AreaId, AreaOptions } from '../areas/area.js'
import { adminArea } from '../areas/admin/index.js'
import { coreArea, type Readings, ReadingWindow } from '../areas/core/index.js'
import { quantumArea } from '../areas/quantum/index.js'
import { generalArea } from '../areas/general/index.js'
import { ledgerArea } from '../areas/ledger/index.js'
import { formatBaseUrl, parseBaseUrl } from '../kernel/base-url.js'
import { type Clock, ConfigError } from '../kernel/clock.js'
import { type ClockSetting, SimClock, toSimClock } from '../kernel/sim-clock.js'
import type { AnswerOptions } from '../kernel/answer.js'
import { type Dispatch, Dispatcher } from '../kernel/dispatcher.js'
import { DEFAULT_BODY_LIMIT } from '../kernel/json-body.js'
import { fromFetchRequest, toFetchResponse } from '../kernel/fetch-adapter.js'
import type { ExampleSet } from '../kernel/openapi/examples.js'
import type { OpenApiDocument } from '../kernel/openapi/document.js'
import type { Reply } from '../kernel/reply.js'
import type { Mount } from '../kernel/route.js'
import type { SimRequest } from '../kernel/sim-request.js'
import { SimulatorHandler } from '../kernel/simulator-handler.js'
import { AccountStore } from '../world/accounts/account-store.js'
import type { UsersView } from '../world/accounts/users-view.js'
import { accountsSection } from '../world/accounts/accounts-section.js'
import type { WorldSection } from '../world/section.js'
import { World, type WorldLimits } from '../world/world.js'
import { builtinScenarios, DEFAULT_SCENARIO } from './builtin-scenarios.js'
import { type ChangeListener, ChangeListeners, mayWrite } from './change-listeners.js'
import { controlRoutes } from './control-routes.js'
import type { FaultRule, FaultRuleInput } from './fault-rule.js'
import { faultRoutes } from './fault-routes.js'
import { FaultInjector, type Faults, validateFaultRules } from './faults.js'
import { DEFAULT_JOURNAL_BODY_LIMIT, DEFAULT_JOURNAL_SIZE, Journal, type RequestJournal } from './journal.js'
import { journalRoutes } from './journal-routes.js'
import { CONTROL_AREA, type PipelineParts, servePipeline } from './request-pipeline.js'
import { WorldLock } from './world-lock.js'
import { worldRoutes } from './world-routes.js'
import { type CreateWorldOptions, requestedWorld, unknownWorld, WorldRegistry, type Worlds, type WorldsOptions, worldLimits } from './worlds.js'
import { describeSimulator, EXAMPLE_CLOCK, type OpenApiOptions, recordExamples } from './openapi.js'
import { ScenarioError } from './scenario-error.js'
import { type Scenario, type ScenarioInput, scenarioSchema, type WorldState, worldStateSchema } from './scenario-schema.js'
import { safeParse } from '../kernel/validate.js'

/** Every area this package ships, in mounting order. */
export const ALL_AREAS: readonly AreaFactory[] = [adminArea, coreArea, quantumArea, generalArea, ledgerArea]

/** The seed used when none is given, so two runs agree by default (D24). */
export const DEFAULT_SEED = 1

/** Where the control API lives (D26). */
export const CONTROL_PREFIX = '/__mock'

export interface SimulatorOptions extends AreaOptions {
  /** Seed of every random value and id (D24). Default: the scenario's, else 1. */
  seed?: number
  /** A frozen ISO instant (`'2026-01-01T00:00:00Z'`), `'system'` (default) or a `Clock`; movable either way (`sim.clock`). */
  clock?: string | Clock
  /** A built-in or registered scenario name, or a scenario object. Default `'default'`. */
  scenario?: string | ScenarioInput
  /** Extra named scenarios, loadable by name like the built-ins (e.g. from files). */
  scenarios?: Record<string, ScenarioInput>
  /** Which areas to mount. Default: all. */
  areas?: AreaId[]
  /** Per-area base URL: absolute (`https://admin.example.com`) or a path prefix. Default: the D1 prefixes. */
  baseUrls?: Partial<Record<AreaId, string>>
  /** Areas also mounted at `/` (D2). Two that define the same route are refused. */
  root?: AreaId[]
  /** Body and batch limits (D11, D15). */
  limits?: Partial<WorldLimits>
  /** Called with unexpected errors (bugs), which answer 500 `internal_error`. */
  onInternalError?: (error: unknown, request: SimRequest) => void
  /** Request journal: entries kept (default 1,000; 0 turns it off) and characters kept of each body (default 8,192). */
  journal?: { size?: number; bodyLimit?: number }
  /** Fault rules in force from the start, before the scenario's own `faults`. */
  faults?: FaultRuleInput[]
  /** Isolated worlds (`sim.worlds`, `POST /__mock/worlds`): how many at once, when idle ones expire. */
  worlds?: WorldsOptions
}

/**
 * The world's data, queryable in-process. `users` is the shared account store's
 * read-only view (`findMany`, `findFirst`, `count`, `all` with @msw/data's
 * `Query`); the others are the mounted areas' @msw/data collections, typed by
 * their records (absent when the area is not mounted): `products` (B),
 * `particles` (C), `resources`, `notifications` (D), `tokens`, `validators`,
 * `delegations` (E).
 *
 * @example
 * sim.db.users.findMany((q) => q.where({ status: 'active' }))
 * sim.db.products?.findFirst((q) => q.where({ id: 'prod-1001' }))
 */
export interface SimulatorDb extends Partial<CoreCollections & QuantumCollections & GeneralCollections & LedgerCollections> {
  /** Accounts shared by Areas A, B and D: read-only, without password hashes. */
  readonly users: UsersView
}

export interface MountedArea {
  id: AreaId
  letter: string
  title: string
  baseUrls: string[]
}

/**
 * One isolated simulated backend: its own database, clock, seed and handlers.
 *
 * @example
 * const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z' })
 * const server = setupServer(...sim.handlers)
 * beforeEach(() => sim.reset())
 */
export interface Simulator {
  /** msw request handlers: spread them into `setupServer` or `setupWorker`. */
  readonly handlers: RequestHandler[]
  readonly db: SimulatorDb
  /**
   * What Area B ingested (D15): running counts and the points its window still
   * keeps, oldest first (empty when Area B is not mounted).
   *
   * @example
   * sim.readings.counts()                  // { accepted: 3, evicted: 0, stored: 3 }
   * sim.readings.points('greenhouse-1')    // [{ timestamp: '2026-01-01T00:00:00.000Z', value: 21.5 }, ...]
   */
  readonly readings: Readings
  /** Settles once the initial scenario is loaded; requests wait for it on their own. */
  readonly ready: Promise<void>
  readonly seed: number
  /** Name of the loaded scenario (`'custom'` for an object). */
  readonly scenario: string
  readonly areas: readonly MountedArea[]
  readonly clockFixed: boolean
  /**
   * The simulator clock: `advance('90s')`, `set(iso)`, `freeze()`, `resume()`.
   * Everything time-based follows it; `reset()` puts it back where it stood when
   * the scenario was loaded.
   */
  readonly clock: SimClock
  /** The simulator clock's current instant. */
  now(): string
  /** Back to the state right after the current scenario was loaded. */
  reset(): Promise<void>
  /** Empties the world and loads a scenario; it becomes what `reset()` returns to. */
  loadScenario(scenario: string | ScenarioInput): Promise<void>
  /** The whole world including password hashes: in-process only, for `restore()`. */
  snapshot(): WorldState
  restore(snapshot: WorldState): Promise<void>
  /** The whole world as JSON, without password hashes (`GET /__mock/state`). */
  exportState(): WorldState
  /** Validates, then replaces the whole world (`PUT /__mock/state`). Throws `ScenarioError`. */
  importState(state: unknown): Promise<void>
  listScenarios(): Array<{ name: string; description: string }>
  /** Number of records per collection, and `readings`: the ingested points kept (when Area B is mounted). */
  counts(): Record<string, number>
  /**
   * Calls `listener` after every change of the world: a request that may write
   * (POST, PUT, PATCH, DELETE that reached a route, control calls included),
   * `reset()`, `loadScenario()`, `importState()`/`restore()`. In-process writes
   * through `sim.db` or `sim.clock` are not seen. Returns the unsubscribe function.
   *
   * @example
   * const off = sim.onChange(() => sessionStorage.setItem('world', JSON.stringify(sim.snapshot())))
   */
  onChange(listener: ChangeListener): () => void
  /** The route table behind the handlers, for servers that want 404 suggestions (D27). */
  readonly dispatcher: Dispatcher
  /**
   * Answers a request straight from the route table, as the handlers would but
   * without msw's per-request machinery; `undefined` when no area claims it.
   * Overrides added with `server.use()` do not apply here.
   */
  fetch(request: Request): Promise<Response> | undefined
  /**
   * Answers any request adapted to `SimRequest` (e.g. Node's own request, on the
   * CLI server's fast path) with a plain reply, through the same route table,
   * faults, journal and worlds as `fetch` and the handlers; `undefined` when no
   * area claims it.
   *
   * @example
   * const reply = await sim.reply(fromFetchRequest(new Request('http://x/core/users')))
   */
  reply(request: SimRequest): Promise<Reply> | undefined
  /** What was answered, newest last: `sim.journal.find({ method: 'POST', path: '/core/users' })`. */
  readonly journal: RequestJournal
  /** Fault rules: latency, error statuses, dropped connections; seeded, so reproducible. */
  readonly faults: Faults
  /** Isolated worlds in this simulator, picked per request by the `x-mock-world` header. */
  readonly worlds: Worlds<Simulator>
  /** This world's id; `null` for the default world. */
  readonly worldId: string | null
  /**
   * The OpenAPI 3.1 document of the mounted areas and the control API, generated
   * from the zod schemas the routes validate with (`GET /__mock/openapi.json`).
   * Its examples are recorded once, on a simulator of their own seeded with the
   * default scenario, seed 1 and a frozen clock, so they never depend on this world.
   *
   * @example
   * const doc = await sim.openapi({ origin: 'http://127.0.0.1:4000' })
   * const ledgerOnly = await sim.openapi({ area: 'ledger' })
   */
  openapi(options?: OpenApiOptions): Promise<OpenApiDocument>
}

/** A request some world of the family claims, and which world answers it. */
type Routed = {
  target: SimulatorInstance
  dispatch: Dispatch
}

/** How a world is made: the registry it belongs to and its id. */
interface Family {
  registry: WorldRegistry<SimulatorInstance>
  id: string
}

/**
 * Creates an isolated simulator. Synchronous so it can feed `setupServer`
 * directly; an invalid option or scenario throws `ConfigError` at once, and
 * seeding finishes in the background (`await sim.ready` if you need it).
 *
 * @example
 * const sim = createSimulator({ seed: 7, areas: ['admin'], baseUrls: { admin: 'https://admin.test' } })
 */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  return new SimulatorInstance(options)
}

class SimulatorInstance implements Simulator {
  readonly handlers: RequestHandler[]
  readonly db: SimulatorDb
  readonly readings: Readings
  readonly ready: Promise<void>
  readonly areas: MountedArea[]
  readonly dispatcher: Dispatcher
  readonly worldId: string | null
  scenario = DEFAULT_SCENARIO

  readonly #options: SimulatorOptions
  readonly #world: World
  readonly #sections: WorldSection[]
  readonly #registry: Record<string, ScenarioInput>
  readonly #pipeline: PipelineParts
  readonly #faults: FaultInjector
  readonly #journal: Journal
  readonly #worlds: WorldRegistry<SimulatorInstance>
  /** Routes that manage worlds: they answer even when a request names an unknown world. */
  readonly #worldRoutes: ReadonlySet<unknown>
  /** The `faults` option, validated; a scenario's own rules follow them. */
  readonly #optionFaults: FaultRule[]
  #initialFaults: FaultRule[] = []
  #initial: WorldState | undefined
  #initialClock: ClockSetting | undefined
  readonly #lock = new WorldLock()
  /** Whether an area (B) keeps readings, so `counts()` lists them. */
  readonly #readingsMounted: boolean
  readonly #changes = new ChangeListeners()
  #examples: Promise<ExampleSet> | undefined

  constructor(options: SimulatorOptions, family?: Family) {
    this.#options = options
    this.worldId = family?.id ?? null
    this.#registry = { ...builtinScenarios, ...options.scenarios }
    const chosen = this.#resolveScenario(options.scenario ?? DEFAULT_SCENARIO)
    const limits: WorldLimits = {
      bodyBytes: positive(options.limits?.bodyBytes, 'limits.bodyBytes') ?? DEFAULT_BODY_LIMIT,
      ingestPoints: positive(options.limits?.ingestPoints, 'limits.ingestPoints') ?? 10_000,
    }
    if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) throw new ConfigError(`Invalid seed "${options.seed}": expected an integer.`)
    this.#world = new World({ seed: this.#seedFor(chosen.scenario), clock: toSimClock(options.clock), limits })
    this.#optionFaults = validateFaultRules(options.faults ?? [], 'faults option')
    this.#faults = new FaultInjector(this.#world.seed)
    this.#journal = new Journal({
      size: nonNegative(options.journal?.size, 'journal.size') ?? DEFAULT_JOURNAL_SIZE,
      bodyLimit: nonNegative(options.journal?.bodyLimit, 'journal.bodyLimit') ?? DEFAULT_JOURNAL_BODY_LIMIT,
      world: this.worldId,
    })
    this.#worlds = family?.registry ?? new WorldRegistry<SimulatorInstance>(this, (id, create) => this.#newWorld(id, create), worldLimits(options.worlds))

    const accounts = new AccountStore(this.#world)
    this.db = { users: accounts.view }
    this.#sections = [accountsSection(this.#world, accounts)]
    const enabled = this.#enabledAreas()
    const roots = new Set(options.root ?? [])
    const mounts: Mount[] = []
    this.areas = []
    let readings: Readings | undefined
    for (const area of enabled) {
      const instance = area.create({ world: this.#world, accounts, options })
      Object.assign(this.db, instance.collections)
      readings ??= instance.readings
      if (instance.section) this.#sections.push(instance.section)
      const base = parseBaseUrl(this.#options.baseUrls?.[area.id] ?? area.prefix)
      mounts.push({ area: area.id, origin: base.origin, prefix: base.prefix, routes: instance.routes })
      const baseUrls = [formatBaseUrl(base)]
      if (roots.has(area.id)) {
        mounts.push({ area: area.id, origin: base.origin, prefix: '', routes: instance.routes })
        baseUrls.push(formatBaseUrl({ origin: base.origin, prefix: '' }))
      }
      this.areas.push({ id: area.id, letter: area.letter, title: area.title, baseUrls })
    }
    this.#readingsMounted = readings !== undefined
    this.readings = readings ?? new ReadingWindow({ sensorWindow: 0, window: 0 })
    for (const id of roots) {
      if (!enabled.some((area) => area.id === id)) throw new ConfigError(`Cannot mount area "${id}" at the root: it is not enabled.`)
    }
    const managing = worldRoutes(this.#worlds, CONTROL_PREFIX)
    this.#worldRoutes = new Set(managing)
    const control = [...controlRoutes(this), ...journalRoutes(this.#journal), ...faultRoutes(this.#faults), ...managing]
    mounts.unshift({ area: CONTROL_AREA, origin: null, prefix: CONTROL_PREFIX, routes: control })
    this.dispatcher = new Dispatcher(mounts, {
      areas: this.areas.map(({ id, letter, baseUrls }) => ({ id, letter, baseUrls })),
      control: CONTROL_PREFIX,
    })
    const answerOptions: AnswerOptions = {
      before: () => this.#lock.idle(),
      onInternalError: options.onInternalError ?? reportInternalError,
      answered: (request, response) => {
        if (mayWrite(request.method)) this.#changes.emit({ cause: 'request', method: request.method, url: request.url, status: response.status })
      },
    }
    this.#pipeline = {
      faults: this.#faults,
      journal: this.#journal,
      clock: this.#world.clock,
      lock: this.#lock,
      answerOptions,
      areaAnswerOptions: { ...answerOptions, before: undefined },
    }
    const router = {
      route: (request: Request) => this.#route(request),
      answer: async (found: Routed, request: Request) => toFetchResponse(await found.target.#serve(found.dispatch, fromFetchRequest(request)), request),
    }
    this.handlers = [new SimulatorHandler(router, `multi-area-mock (${enabled.map((area) => area.id).join(', ')})`)]
    const clock = this.#world.clock.save()
    // At once, not after seeding: rules set right after creation must not be replaced.
    this.#startFaults(chosen.scenario)
    this.ready = this.#enqueue(() => this.#load(chosen.name, chosen.scenario, clock))
    // The caller may never await `ready`; a failure still surfaces on the first request.
    this.ready.catch(() => undefined)
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
    const found = this.#route(request)
    return found && found.target.#serve(found.dispatch, fromFetchRequest(request)).then((reply) => toFetchResponse(reply, request))
  }

  reply(request: SimRequest): Promise<Reply> | undefined {
    const found = this.#route(request)
    return found && found.target.#serve(found.dispatch, request)
  }

  async openapi(options: OpenApiOptions = {}): Promise<OpenApiDocument> {
    this.#examples ??= recordExamples(
      createSimulator({ ...this.#options, seed: DEFAULT_SEED, scenario: DEFAULT_SCENARIO, clock: EXAMPLE_CLOCK, baseUrls: {}, root: [] }),
    )
    return describeSimulator(this, await this.#examples, options)
  }

  /** Journal emptied and fault rules back to the scenario's too, so each test starts clean. */
  reset(): Promise<void> {
    return this.#enqueue(async () => {
      if (this.#initialClock) this.#world.clock.restore(this.#initialClock)
      if (this.#initial) await this.#import(this.#initial)
      this.#restartRequests()
      this.#changes.emit({ cause: 'reset' })
    })
  }

  loadScenario(scenario: string | ScenarioInput): Promise<void> {
    let chosen: { name: string; scenario: Scenario }
    try {
      chosen = this.#resolveScenario(scenario)
    } catch (error) {
      return Promise.reject(error)
    }
    const clock = this.#world.clock.save()
    return this.#enqueue(async () => {
      await this.#load(chosen.name, chosen.scenario, clock)
      this.#startFaults(chosen.scenario)
    })
  }

  snapshot(): WorldState {
    return structuredClone(this.#export(true))
  }

  restore(snapshot: WorldState): Promise<void> {
    return this.importState(snapshot)
  }

  exportState(): WorldState {
    return this.#export(false)
  }

  importState(state: unknown): Promise<void> {
    const result = safeParse(worldStateSchema, state)
    if (!result.success) return Promise.reject(new ScenarioError('state document', result.error.issues))
    return this.#enqueue(async () => {
      await this.#import(result.data)
      this.#changes.emit({ cause: 'state' })
    })
  }

  listScenarios(): Array<{ name: string; description: string }> {
    return Object.entries(this.#registry).map(([name, scenario]) => ({ name, description: scenario.description ?? '' }))
  }

  counts(): Record<string, number> {
    const counts = Object.fromEntries(Object.entries(this.db).map(([name, collection]: [string, { count(): number }]) => [name, collection.count()]))
    if (this.#readingsMounted) counts.readings = this.readings.counts().stored
    return counts
  }

  onChange(listener: ChangeListener): () => void {
    return this.#changes.add(listener)
  }

  #resolveScenario(scenario: string | ScenarioInput): { name: string; scenario: Scenario } {
    const name = typeof scenario === 'string' ? scenario : 'custom'
    const input = typeof scenario === 'string' ? this.#registry[scenario] : scenario
    if (input === undefined) {
      throw new ConfigError(`Unknown scenario "${scenario}". Available: ${Object.keys(this.#registry).join(', ')}.`)
    }
    const result = safeParse(scenarioSchema, input)
    if (!result.success) throw new ScenarioError(`scenario "${name}"`, result.error.issues)
    return { name, scenario: result.data }
  }

  #seedFor(scenario: Scenario): number {
    return this.#options.seed ?? scenario.seed ?? DEFAULT_SEED
  }

  #enabledAreas(): AreaFactory[] {
    const wanted = this.#options.areas
    if (!wanted) return [...ALL_AREAS]
    for (const id of wanted) {
      if (!ALL_AREAS.some((area) => area.id === id)) {
        throw new ConfigError(`Unknown area "${id}". Known areas: ${ALL_AREAS.map((area) => area.id).join(', ')}.`)
      }
    }
    return ALL_AREAS.filter((area) => wanted.includes(area.id))
  }

  /** `clock`: where the clock stood when the load was asked for; `reset()` returns there. */
  async #load(name: string, scenario: Scenario, clock: ClockSetting): Promise<void> {
    this.#world.reseed(this.#seedFor(scenario))
    for (const section of this.#sections) await section.load((scenario as Record<string, unknown>)[section.key])
    this.scenario = name
    this.#initial = this.#export(true)
    this.#initialClock = clock
    this.#changes.emit({ cause: 'scenario' })
  }

  /** The fault rules a scenario starts with: the `faults` option's, then its own. */
  #startFaults(scenario: Scenario): void {
    this.#initialFaults = [...this.#optionFaults, ...(scenario.faults ?? [])]
    this.#restartRequests()
  }

  /** Empties the journal and puts the fault rules, their counts and draws back to the scenario's. */
  #restartRequests(): void {
    this.#journal.clear()
    this.#faults.restart(this.#world.seed, this.#initialFaults)
  }

  /**
   * Which world of the family answers a request: the one its `x-mock-world`
   * header (or cookie) names, else this one. A name no world has is a 404 for
   * any URL the simulator claims, except the routes that manage worlds.
   */
  #route(request: Pick<SimRequest, 'method' | 'url' | 'headers'>): Routed | undefined {
    const id = requestedWorld(request)
    const target = id === null || id === this.worldId ? this : this.#worlds.use(id)
    const dispatch = (target ?? this).dispatcher.dispatch(request)
    if (target) return dispatch && { target, dispatch }
    if (!dispatch) return undefined
    if (dispatch.kind === 'route' && this.#worldRoutes.has(dispatch.route)) return { target: this, dispatch }
    // A wrong method is wrong in every world: 405 with Allow, as documented, before the world is looked at.
    if (dispatch.kind === 'error' && dispatch.error.status === 405) return { target: this, dispatch }
    // `target` is missing only when a world was named (`id` is set) and none has that id.
    return { target: this, dispatch: { kind: 'error', error: unknownWorld(id!, this.#worlds.idleMs) } }
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
    return new SimulatorInstance(worldOptions, { registry: this.#worlds, id })
  }

  async #import(state: WorldState): Promise<void> {
    if (state.seed !== undefined) this.#world.seed = state.seed
    if (state.meta) this.#world.setMeta(state.meta)
    for (const section of this.#sections) await section.import((state as Record<string, unknown>)[section.key])
  }

  #export(secrets: boolean): WorldState {
    const state: Record<string, unknown> = { format: 1, seed: this.#world.seed, meta: this.#world.getMeta() }
    for (const section of this.#sections) state[section.key] = section.export({ secrets })
    return state as WorldState
  }

  /** World changes run one at a time, once the requests inside the world are done; requests arriving meanwhile wait. */
  #enqueue(operation: () => Promise<void>): Promise<void> {
    return this.#lock.exclusive(operation)
  }
}

/** Default for `onInternalError`: a simulator bug must not pass silently in a test run. */
function reportInternalError(error: unknown, request: SimRequest): void {
  console.error(`[multi-area-mock] internal error on ${request.method} ${request.url}:`, error)
}

function nonNegative(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isSafeInteger(value) || value < 0) throw new ConfigError(`Invalid ${name} "${value}": expected an integer of 0 or more.`)
  return value
}

function positive(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isSafeInteger(value) || value <= 0) throw new ConfigError(`Invalid ${name} "${value}": expected a positive integer.`)
  return value
}
