import type { IncomingMessage, ServerResponse } from 'node:http'
import { getResponse } from 'msw'
import type { Simulator } from '../simulator/simulator.js'
import { toFetchRequest } from './fetch-request.js'
import { fromNodeRequest } from './node-request.js'
import { type WireReply, wireReplyOf } from './wire-reply.js'

/**
 * How the CLI server reaches the simulator:
 * - `fast`: Node's request straight to the route table (`sim.reply`): no Fetch
 *   `Request`/`Response` is built; the reply is written as it is.
 * - `direct`: a Fetch `Request` to `sim.fetch` (the route table, no msw).
 * - `msw`: a Fetch `Request` to msw's `getResponse` over `sim.handlers`, as
 *   in-process and in the browser.
 * All three share the routes, validation, error bodies, faults, journal and
 * worlds, and answer byte for byte the same (src/simulator/dispatch-paths.test.ts).
 */
export type DispatchMode = 'fast' | 'direct' | 'msw'

/** Every dispatch mode, the default first. */
export const DISPATCH_MODES = ['fast', 'direct', 'msw'] as const satisfies readonly DispatchMode[]

/** Answers one Node request; `undefined` when no area claims it (the server's 404). */
export type NodeAnswerer = (req: IncomingMessage, res: ServerResponse) => Promise<WireReply | undefined> | undefined

/**
 * The answerer of a dispatch mode. `origin` (`http://127.0.0.1:4000`) makes
 * each request's absolute URL, on every mode.
 * A malformed request URL throws a `TypeError`, on every mode.
 *
 * @example
 * const answer = nodeAnswerer('fast', simulator, 'http://127.0.0.1:4000')
 * const reply = await answer(req, res)
 */
export function nodeAnswerer(mode: DispatchMode, simulator: Simulator, origin: string): NodeAnswerer {
  if (mode === 'fast') return (req) => simulator.reply(fromNodeRequest(req, origin))
  if (mode === 'direct') {
    return (req) => {
      const found = simulator.fetch(toFetchRequest(req, origin))
      return found && found.then(wireReplyOf)
    }
  }
  return async (req) => {
    const response = await getResponse(simulator.handlers, toFetchRequest(req, origin))
    return response && wireReplyOf(response)
  }
}
