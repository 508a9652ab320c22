import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { ApiError } from '../../kernel/errors/api-error.js'
import { errorResponse } from '../../kernel/errors/error-response.js'
import type { CorsPolicy } from '../gate/cors.js'
import { NO_CORS } from '../gate/cors.js'
import { type GateVerdict, isControlPath, pathOf, type RequestGate } from '../gate/request-gate.js'
import type { ProxiedReply } from '../proxy/area-proxy.js'
import { type ClientError, clientErrorReply } from './client-error.js'
import type { EndBatch } from './end-batch.js'
import { type WireReply, withControlHeaders, writeReply } from './wire-reply.js'

/** How much of an unread request body the server swallows before hanging up. */
const DISCARD_LIMIT = 64 * 1024 * 1024

/** The same after a 413: the body was refused for its size and may never end, so stop sooner. */
const TOO_LARGE_DISCARD_LIMIT = 4 * 1024 * 1024

/** What a request that went through the gate (refused or not) is answered with. */
export type Answerer = (req: IncomingMessage, res: ServerResponse, verdict: GateVerdict) => Promise<WireReply | ProxiedReply>

export interface RequestListenerOptions {
  /** Checks each request first; its verdict goes to `answer`. */
  gate: RequestGate
  /** `http://host:port`: the URL a request too malformed for the gate is taken to be on. */
  origin: string
  /** Also answers the requests Node cannot parse (their CORS headers). */
  cors: CorsPolicy
  /** Ends answers at the end of the event-loop turn; flushed before a client error is written. */
  batch: EndBatch
  answer: Answerer
  /** Receives one line per request: method, path as sent, status, time (and the upstream of a proxied one). */
  log?: ((line: string) => void) | undefined
}

/**
 * Hands every request of `server` to the gate, then `answer`, and writes the
 * reply (the control headers on control paths, the CORS headers of the
 * verdict) with one log line; a request Node cannot parse, or too slow, still
 * gets a JSON error, unless an answer has begun on its socket.
 *
 * @example
 * listenForRequests(server, { gate, origin, cors, batch, answer, log: console.log })
 */
export function listenForRequests(server: Server, { gate, origin, cors, batch, answer, log }: RequestListenerOptions): void {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    ;(req.socket as AnsweredSocket)[ANSWERING] = res
    const started = performance.now()
    let verdict: GateVerdict
    try {
      verdict = gate.check(req)
    } catch {
      verdict = { path: '/', url: new URL(origin), guarded: false, cors: NO_CORS, refused: malformedUrl() }
    }
    // The log shows the path as sent, so a refused trick (`/core/../__mock/state 400`) reads as what it was.
    const path = pathOf(req.url ?? '/')
    void answer(req, res, verdict)
      .catch((error: unknown): WireReply => errorResponse(error))
      .then((reply) => {
        const upstream = 'upstreamHost' in reply ? ` (proxied to ${reply.upstreamHost})` : ''
        log?.(`${req.method} ${path} ${reply.status === 0 ? 'dropped' : reply.status} ${(performance.now() - started).toFixed(1)}ms${upstream}`)
        if (res.destroyed || ('written' in reply && reply.written)) return
        writeReply(res, isControlPath(verdict.path) ? withControlHeaders(reply) : reply, reply.status === 0 ? undefined : verdict.cors, batch)
        // A request refused before its body was read (413, 415, 404...) leaves the
        // upload unread; the client would block sending it and never read our answer.
        if (!req.complete) discardRest(req, res.statusCode === 413 ? TOO_LARGE_DISCARD_LIMIT : DISCARD_LIMIT)
      })
      .catch((error: unknown) => {
        // Only writing can fail here (e.g. a header value Node refuses): a bug, not the client's.
        process.stderr.write(`multi-area-mock: could not answer ${req.method} ${path}: ${error instanceof Error ? error.message : String(error)}\n`)
        res.destroy()
      })
  })
  // Requests Node cannot even parse (header block over its limit, broken HTTP)
  // or that come too slowly never reach the handlers; they still get a JSON
  // error (D9) with the CORS headers, unless an answer has begun on the socket.
  server.on('clientError', (error: ClientError, socket) => {
    // An answer made earlier in this turn goes out whole first: its head alone would look like one cut short.
    batch.flush()
    const current = (socket as AnsweredSocket)[ANSWERING]
    const midAnswer = current?.headersSent && !current.writableFinished
    const reply = socket.writable && !midAnswer ? clientErrorReply(error, cors) : undefined
    if (reply === undefined) return void socket.destroy()
    socket.end(reply, () => socket.destroy())
  })
}

/**
 * The response being written on a socket, so a late client error never corrupts
 * it. On the socket because Node's `clientError` event hands over the socket
 * alone; a property, not a WeakMap: no GC bookkeeping per request.
 */
const ANSWERING = Symbol('answering')
type AnsweredSocket = object & { [ANSWERING]?: ServerResponse }

/**
 * Swallows the rest of an unread upload (up to `limit` bytes, then hangs up),
 * as Node does for unread bodies; a body reader still listening (a Fetch body
 * stream nobody reads pauses the request again at once) is removed first.
 */
function discardRest(req: IncomingMessage, limit: number): void {
  let discarded = 0
  req.removeAllListeners('data')
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length
    if (discarded > limit) req.socket.destroy()
  })
  req.resume()
}

function malformedUrl(): ApiError {
  return new ApiError(400, 'validation_failed', 'The request URL is malformed.', { details: [{ path: 'url', message: 'is not a valid URL' }] })
}
