import { ApiError } from '../../kernel/errors/api-error.js'
import type { SimRequest } from '../../kernel/http/sim-request.js'
import type { Dispatch, Dispatcher } from '../../kernel/routing/dispatcher.js'
import { requestedWorld, unknownWorld } from './worlds.js'
import type { WorldRegistry } from './world-registry.js'

/** What the router needs of each world of a family. */
export interface RoutedWorld {
  readonly dispatcher: Dispatcher
  readonly worldId: string | null
  readonly ready: Promise<void>
  readonly scenario: string
  readonly seed: number
}

/** A request some world of the family claims, and which world answers it. */
export interface Routed<S> {
  target: S
  dispatch: Dispatch
}

/**
 * Routing between the isolated worlds of one simulator family: which world
 * answers a request (its `x-mock-world` header or cookie, else the world the
 * request reached) and which of that world's routes.
 *
 * @example
 * const router = new WorldRouter(sim, registry, new Set(worldManagementRoutes))
 * const found = router.route(request) // { target, dispatch } or undefined
 */
export class WorldRouter<S extends RoutedWorld> {
  readonly #home: S
  readonly #worlds: WorldRegistry<S>
  /** Routes that manage worlds: they answer even when a request names an unknown world. */
  readonly #managing: ReadonlySet<unknown>

  constructor(home: S, worlds: WorldRegistry<S>, managing: ReadonlySet<unknown>) {
    this.#home = home
    this.#worlds = worlds
    this.#managing = managing
  }

  /**
   * Which world of the family answers a request: the one its `x-mock-world`
   * header (or cookie) names, else this one. A name no world has is a 404 for
   * any URL the simulator claims, except the routes that manage worlds.
   */
  route(request: Pick<SimRequest, 'method' | 'url' | 'headers'>): Routed<S> | undefined {
    const home = this.#home
    const target = this.world(request)
    const dispatch = (target instanceof ApiError ? home : target).dispatcher.dispatch(request)
    if (!(target instanceof ApiError)) return dispatch && { target, dispatch }
    if (!dispatch) return undefined
    if (dispatch.kind === 'route' && this.#managing.has(dispatch.route)) return { target: home, dispatch }
    // A wrong method is wrong in every world: 405 with Allow, as documented, before the world is looked at.
    if (dispatch.kind === 'error' && dispatch.error.status === 405) return { target: home, dispatch }
    return { target: home, dispatch: { kind: 'error', error: target } }
  }

  /**
   * The rule of which world answers, for every request (a proxied area's too):
   * the world its `x-mock-world` header (or cookie) names, else this one; a
   * name no world has is the 404 to answer.
   */
  world(request: Pick<SimRequest, 'headers'>): S | ApiError {
    const home = this.#home
    const id = requestedWorld(request)
    if (id === null || id === home.worldId) return home
    return this.#worlds.use(id) ?? unknownWorld(id, this.#worlds.idleMs)
  }
}
