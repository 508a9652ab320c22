import type { Collection } from '@msw/data'
import type { RequestHandler } from 'msw'
import type { AreaFactory, AreaId, AreaOptions } from '../areas/area.js'
import { adminArea } from '../areas/admin/index.js'
import { coreArea } from '../areas/core/index.js'
import { formatBaseUrl, parseBaseUrl } from '../kernel/base-url.js'
import { type Clock, ConfigError } from '../kernel/clock.js'
import { type ClockSetting, type SimClock, toSimClock } from '../kernel/sim-clock.js'
import { type AnswerOptions, answer } from '../kernel/answer.js'
import { Dispatcher } from '../kernel/dispatcher.js'
import { DEFAULT_BODY_LIMIT } from '../kernel/json-body.js'
import type { ExampleSet } from '../kernel/openapi/examples.js'
import type { OpenApiDocument } from '../kernel/openapi/document.js'
import type { Mount } from '../kernel/route.js'
import { SimulatorHandler } from '../kernel/simulator-handler.js'
import type { AccountCollection } from '../world/accounts/account-store.js'
import { AccountStore } from '../world/accounts/account-store.js'
import { accountsSection } from '../world/accounts/accounts-section.js'
import type { WorldSection } from '../world/section.js'
import { World, type WorldLimits } from '../world/world.js'
import { builtinScenarios, DEFAULT_SCENARIO } from './builtin-scenarios.js'
import { controlRoutes } from './control-routes.js'
import { describeSimulator, EXAMPLE_CLOCK, type OpenApiOptions, recordExamples } from './openapi.js'
import { ScenarioError } from './scenario-error.js'
import { type Scenario, type ScenarioInput, scenarioSchema, type WorldState, worldStateSchema } from './scenario-schema.js'

/** Every area this package ships, in mounting order. */
export const ALL_AREAS: readonly AreaFactory[] = [adminArea, coreArea]

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
  onInternalError?: (error: unknown, request: Request) => void
}

/** The collections of the world, queryable with @msw/data (`sim.db.users.findMany(...)`). */
export interface SimulatorDb {
  users: AccountCollection
  [collection: string]: Collection<any>
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
  /** Number of records per collection. */
  counts(): Record<string, number>
  /** The route table behind the handlers, for servers that want 404 suggestions (D27). */
  readonly dispatcher: Dispatcher
  /**
   * Answers a request straight from the route table, as the handlers would but
   * without msw's per-request machinery; `undefined` when no area claims it.
   * Overrides added with `server.use()` do not apply here.
   */
  fetch(request: Request): Promise<Response> | undefined
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
  readonly ready: Promise<void>
  readonly areas: MountedArea[]
  readonly dispatcher: Dispatcher
  scenario = DEFAULT_SCENARIO

  readonly #options: SimulatorOptions
  readonly #world: World
  readonly #sections: WorldSection[]
  readonly #registry: Record<string, ScenarioInput>
  readonly #answerOptions: AnswerOptions
  #initial: WorldState | undefined
  #initialClock: ClockSetting | undefined
  #queue: Promise<void> = Promise.resolve()
  #busy = 0
  #examples: Promise<ExampleSet> | undefined

  constructor(options: SimulatorOptions) {
    this.#options = options
    this.#registry = { ...builtinScenarios, ...options.scenarios }
    const chosen = this.#resolveScenario(options.scenario ?? DEFAULT_SCENARIO)
    const limits: WorldLimits = {
      bodyBytes: positive(options.limits?.bodyBytes, 'limits.bodyBytes') ?? DEFAULT_BODY_LIMIT,
      ingestPoints: positive(options.limits?.ingestPoints, 'limits.ingestPoints') ?? 10_000,
    }
    if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) throw new ConfigError(`Invalid seed "${options.seed}": expected an integer.`)
    this.#world = new World({ seed: this.#seedFor(chosen.scenario), clock: toSimClock(options.clock), limits })

    const accounts = new AccountStore(this.#world)
    this.db = { users: accounts.collection }
    this.#sections = [accountsSection(this.#world, accounts)]
    const enabled = this.#enabledAreas()
    const roots = new Set(options.root ?? [])
    const mounts: Mount[] = []
    this.areas = []
    for (const area of enabled) {
      const instance = area.create({ world: this.#world, accounts, options })
      Object.assign(this.db, instance.collections)
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
    for (const id of roots) {
      if (!enabled.some((area) => area.id === id)) throw new ConfigError(`Cannot mount area "${id}" at the root: it is not enabled.`)
    }
    mounts.unshift({ area: 'control', origin: null, prefix: CONTROL_PREFIX, routes: controlRoutes(this) })
    this.dispatcher = new Dispatcher(mounts, {
      areas: this.areas.map(({ id, letter, baseUrls }) => ({ id, letter, baseUrls })),
      control: CONTROL_PREFIX,
    })
    this.#answerOptions = {
      before: () => (this.#busy > 0 ? this.#queue : undefined),
      onInternalError: options.onInternalError ?? reportInternalError,
    }
    this.handlers = [new SimulatorHandler(this.dispatcher, `multi-area-mock (${enabled.map((area) => area.id).join(', ')})`, this.#answerOptions)]
    const clock = this.#world.clock.save()
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

  get clockFixed(): boolean {
    return this.#world.clock.fixed
  }

  now(): string {
    return this.#world.now()
  }

  fetch(request: Request): Promise<Response> | undefined {
    const found = this.dispatcher.dispatch(request)
    return found && answer(found, request, this.#answerOptions)
  }

  async openapi(options: OpenApiOptions = {}): Promise<OpenApiDocument> {
    this.#examples ??= recordExamples(
      createSimulator({ ...this.#options, seed: DEFAULT_SEED, scenario: DEFAULT_SCENARIO, clock: EXAMPLE_CLOCK, baseUrls: {}, root: [] }),
    )
    return describeSimulator(this, await this.#examples, options)
  }

  reset(): Promise<void> {
    return this.#enqueue(async () => {
      if (this.#initialClock) this.#world.clock.restore(this.#initialClock)
      if (this.#initial) await this.#import(this.#initial)
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
    return this.#enqueue(() => this.#load(chosen.name, chosen.scenario, clock))
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
    const result = worldStateSchema.safeParse(state)
    if (!result.success) return Promise.reject(new ScenarioError('state document', result.error.issues))
    return this.#enqueue(() => this.#import(result.data))
  }

  listScenarios(): Array<{ name: string; description: string }> {
    return Object.entries(this.#registry).map(([name, scenario]) => ({ name, description: scenario.description ?? '' }))
  }

  counts(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.db).map(([name, collection]) => [name, collection.count()]))
  }

  #resolveScenario(scenario: string | ScenarioInput): { name: string; scenario: Scenario } {
    const name = typeof scenario === 'string' ? scenario : 'custom'
    const input = typeof scenario === 'string' ? this.#registry[scenario] : scenario
    if (input === undefined) {
      throw new ConfigError(`Unknown scenario "${scenario}". Available: ${Object.keys(this.#registry).join(', ')}.`)
    }
    const result = scenarioSchema.safeParse(input)
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

  /** World changes run one at a time; requests arriving meanwhile wait for them. */
  #enqueue(operation: () => Promise<void>): Promise<void> {
    this.#busy++
    const run = this.#queue.then(operation).finally(() => {
      this.#busy--
    })
    this.#queue = run.catch(() => undefined)
    return run
  }
}

/** Default for `onInternalError`: a simulator bug must not pass silently in a test run. */
function reportInternalError(error: unknown, request: Request): void {
  console.error(`[multi-area-mock] internal error on ${request.method} ${request.url}:`, error)
}

function positive(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isSafeInteger(value) || value <= 0) throw new ConfigError(`Invalid ${name} "${value}": expected a positive integer.`)
  return value
}
