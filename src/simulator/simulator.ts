import type { RequestHandler } from 'msw'
import type { AreaCollections, AreaId } from '../areas/registry.js'
import type { Readings } from '../areas/core/index.js'
import type { OpenApiDocument } from '../kernel/openapi/document.js'
import type { SimClock } from '../kernel/time/sim-clock.js'
import type { UsersView } from '../world/accounts/users-view.js'
import type { ChangeListener } from './events/change-listeners.js'
import type { Faults } from './faults/faults.js'
import type { RequestJournal } from './journal/journal-entry.js'
import type { ScenarioInput, WorldState } from './state/scenario-schema.js'
import type { Worlds } from './worlds/worlds.js'

/** Where the control API lives (D26). */
export const CONTROL_PREFIX = '/__mock'

/** Area id of the control API mount (D26): never faulted, never journaled. */
export const CONTROL_AREA = 'control'

/**
 * The world's data, queryable in-process. `users` is the shared account store's
 * read-only view (`findMany`, `findFirst`, `count`, `all` with @msw/data's
 * `Query`); the others are the mounted areas' @msw/data collections, by
 * name, absent when their area is not mounted.
 *
 * @example
 * sim.db.users.findMany((q) => q.where({ status: 'active' }))
 * sim.db.products?.findFirst((q) => q.where({ id: 'prod-1001' }))
 */
export type SimulatorDb = { readonly users: UsersView } & Partial<AreaCollections>

/** An area as mounted in one simulator: what `sim.areas` and `GET /__mock/health` list. */
export interface MountedArea {
  id: AreaId
  letter: string
  title: string
  baseUrls: string[]
}

/** What `sim.openapi()` describes. */
export interface OpenApiOptions {
  /** Origin of the server that serves the areas, e.g. `http://127.0.0.1:4000`; omitted: relative server URLs. */
  origin?: string | undefined
  /** Only this area: its paths as the spec writes them, its base URLs as the servers. */
  area?: AreaId | undefined
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
  /**
   * The world's data (`SimulatorDb`). Throws `sim.db is not ready yet: await
   * sim.ready first` until the scenario is seeded, rather than show an empty world.
   *
   * @example
   * await sim.ready
   * sim.db.users.count() // 48 in the default scenario
   */
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
  /** Settles once the initial scenario is loaded; requests wait for it on their own, `sim.db` does not. */
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
  /**
   * Empties the world and loads a scenario; it becomes what `reset()` returns to.
   * In an isolated world, refused before seeding (`ApiError` 413 `world_too_large`
   * or 409) past `worlds.maxRecords` or `worlds.maxTotalRecords`.
   */
  loadScenario(scenario: string | ScenarioInput): Promise<void>
  /** The whole world including password hashes: in-process only, for `restore()`. */
  snapshot(): WorldState
  restore(snapshot: WorldState): Promise<void>
  /** The whole world as JSON, without password hashes (`GET /__mock/state`). */
  exportState(): WorldState
  /** Validates, then replaces the whole world (`PUT /__mock/state`). Throws `ScenarioError`; in an isolated world also `ApiError` past the `worlds` record limits. */
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
  /**
   * Answers a request straight from the route table, as the handlers would but
   * without msw's per-request machinery; `undefined` when no area claims it.
   * Overrides added with `server.use()` do not apply here.
   */
  fetch(request: Request): Promise<Response> | undefined
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
