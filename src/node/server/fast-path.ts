import type { IncomingMessage, ServerResponse } from 'node:http'
import { getResponse } from 'msw'
import type { SimulatorEngine } from '../../simulator/engine.js'
import { toFetchRequest } from './fetch-request.js'
import { fromNodeRequest } from './node-request.js'
import { type WireReply, wireReplyOf } from './wire-reply.js'

/**
 * How the CLI server reaches the simulator:
 * - `fast`: Node's request straight to the route table: no Fetch
 *   `Request`/`Response` is built; the reply is written as it is.
 * - `msw`: a Fetch `Request` to msw's `getResponse` over `sim.handlers`, as
 *   in-process and in the browser.
 * Both share the routes, validation, error bodies, faults, journal and
 * worlds, and answer byte for byte the same (src/node/server/dispatch-paths.test.ts).
 */
export type DispatchMode = 'fast' | 'msw'

/** Every dispatch mode, the default first. */
export const DISPATCH_MODES = ['fast', 'msw'] as const satisfies readonly DispatchMode[]

/** Answers one Node request; `undefined` when no area claims it (the server's 404). */
export type NodeAnswerer = (req: IncomingMessage, res: ServerResponse) => Promise<WireReply | undefined> | undefined

/**
 * The answerer of a dispatch mode. `origin` (`http://127.0.0.1:4000`) makes
 * each request's absolute URL, on every mode.
 * A malformed request URL throws a `TypeError`, on every mode.
 *
 * @example
 * const answer = nodeAnswerer('fast', engineOf(simulator), 'http://127.0.0.1:4000')
 * const reply = await answer(req, res)
 */
export function nodeAnswerer(mode: DispatchMode, engine: SimulatorEngine, origin: string): NodeAnswerer {
  if (mode === 'fast') return (req) => engine.reply(fromNodeRequest(req, origin))
  return async (req) => {
    const response = await getResponse(engine.handlers, toFetchRequest(req, origin))
    return response && wireReplyOf(response)
  }
}
