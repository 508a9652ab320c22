import { ApiError } from '../kernel/errors/api-error.js'
import { errorResponse } from '../kernel/errors/error-response.js'
import type { Reply } from '../kernel/http/reply.js'
import type { SimRequest } from '../kernel/http/sim-request.js'
import type { Dispatch } from '../kernel/routing/dispatcher.js'
import type { SimulatorOptions } from './options.js'
import { type PipelineParts, servePipeline, type Upstream } from './pipeline/request-pipeline.js'
import type { Routed, RoutedWorld, WorldRouter } from './worlds/world-router.js'

/** A routed request: the world and route that answer it, and the request as they read it. */
export interface Found<W> extends Routed<W> {
  request: SimRequest
}

/** What answering needs of each world of a family: its route table and its pipeline. */
export interface AnsweringWorld extends RoutedWorld {
  readonly pipeline: PipelineParts
}

/** What `WorldRequests` works with besides the worlds themselves. */
export interface RequestParts {
  /** With replicas, applies what the others wrote before a request is answered; `undefined` when there is nothing to wait for. */
  catchUp: () => Promise<void> | undefined
  /** Told of a failure to catch up that is not the project's own error (the `onInternalError` option). */
  onInternalError: NonNullable<SimulatorOptions['onInternalError']>
}

/**
 * How a family's worlds answer requests: the world and route a request goes to
 * (`WorldRouter`), then that world's pipeline; with replicas, once what the
 * others wrote is applied (a world one of them made included).
 *
 * @example
 * const requests = new WorldRequests(router, { catchUp: () => log.catchUp(), onInternalError })
 * const found = requests.route(request)
 * const reply = found && (await requests.serve(found))
 */
export class WorldRequests<W extends AnsweringWorld> {
  readonly #router: WorldRouter<W>
  readonly #parts: RequestParts

  constructor(router: WorldRouter<W>, parts: RequestParts) {
    this.#router = router
    this.#parts = parts
  }

  /** Which world and route answer a request, with the request itself. */
  route(request: SimRequest): Found<W> | undefined {
    const found = this.#router.route(request)
    return found && { target: found.target, dispatch: found.dispatch, request }
  }

  /** Answers a routed request; with replicas, once what the others wrote is applied (a failure reported as any). */
  serve(found: Found<W>): Promise<Reply> {
    const behind = this.#parts.catchUp()
    if (behind === undefined) return servePipeline(found.dispatch, found.request, found.target.pipeline)
    const failed = (error: unknown) => errorResponse(error, (internal) => this.#parts.onInternalError(internal, found.request))
    return behind.then(() => {
      const again = this.route(found.request) ?? found
      return servePipeline(again.dispatch, again.request, again.target.pipeline)
    }, failed)
  }

  /** A proxied area's request (`serve --proxy`), answered by `upstream` through the pipeline: the world it names (or its 404), its faults, latency and journal. */
  forward(request: SimRequest, dispatch: Dispatch, upstream: Upstream): Promise<Reply> {
    const world = this.#router.world(request)
    if (world instanceof ApiError) return Promise.resolve(errorResponse(world))
    return servePipeline(dispatch, request, world.pipeline, upstream)
  }
}
