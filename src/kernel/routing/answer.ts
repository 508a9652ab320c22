import { DEFAULT_BODY_LIMIT } from '../http/json/json-body.js'
import type { Dispatch } from './dispatcher.js'
import { runRoute } from './run-route.js'
import { errorResponse } from '../errors/error-response.js'
import type { Reply } from '../http/reply.js'
import type { RequestHold } from '../http/request-hold.js'
import type { SimRequest } from '../http/sim-request.js'

export interface AnswerOptions {
  /** A promise to wait for before answering (the world is being reset or loaded), if any. */
  before?: () => Promise<void> | undefined
  /** Called with unexpected errors; the client gets a 500 `internal_error` either way. */
  onInternalError?: ((error: unknown, request: SimRequest) => void) | undefined
  /** Called once a request that reached a route has its response, before it is returned. */
  answered?: ((request: SimRequest, reply: Reply) => void) | undefined
  /** Largest request body in bytes for routes that set none (D11); default 1 MiB. */
  bodyLimit?: number | undefined
  /** The world's hold, which a request lets go of while its body arrives (area requests; see `WorldLock`). */
  hold?: RequestHold | undefined
}

/**
 * Runs the route a request was dispatched to and turns any thrown error into
 * its JSON response. The one code path behind both the msw handler (and
 * `sim.fetch`) and the server's fast dispatch, so they cannot answer differently.
 *
 * @example
 * const found = dispatcher.dispatch(request)
 * if (found) return answer(found, request, { before })
 */
export async function answer(dispatch: Dispatch, request: SimRequest, options: AnswerOptions): Promise<Reply> {
  if (dispatch.kind === 'error') return errorResponse(dispatch.error)
  let response: Reply
  try {
    const pending = options.before?.()
    if (pending) await pending
    response = await runRoute(dispatch.route, request, dispatch.url, dispatch.params, options.bodyLimit ?? DEFAULT_BODY_LIMIT, options.hold)
  } catch (error) {
    response = errorResponse(error, (internal) => options.onInternalError?.(internal, request))
  }
  options.answered?.(request, response)
  return response
}
