import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { forWire } from '../../kernel/http/fetch-adapter.js'

/**
 * Node's request as a Fetch `Request`, for the `msw` dispatch
 * mode: the absolute URL on `origin`, the headers as Node joined them, and for
 * any method but GET and HEAD a body stream over `req` that pulls from the
 * socket only as it is read (unread, the upload stays paused for the server to
 * discard). A client that goes away mid-body makes the stream error, which the
 * routes answer with a 400 as on the fast path.
 *
 * Leaner than `createRequest` of @remix-run/node-fetch-server (used before): no
 * `AbortSignal` tied to the response (nothing here reads `request.signal`, and
 * a `Request` following another signal costs a second controller and a
 * listener per request) and no second `Headers` object. It is marked
 * `forWire`: the server writes the reply's text, so the `Response` made for it
 * needs no body stream, and the routes read the headers from the plain object
 * the `Request` was made with.
 *
 * @example
 * const response = await getResponse(simulator.handlers, toFetchRequest(req, 'http://127.0.0.1:4000'))
 */
export function toFetchRequest(req: IncomingMessage, origin: string): Request {
  const method = req.method ?? 'GET'
  const headers = plainHeaders(req.headers)
  const url = `${origin}${req.url ?? '/'}`
  // GET is the default method: naming it costs a normalisation per request.
  if (method === 'GET') return forWire(new Request(url, { headers }), headers)
  if (method === 'HEAD') return forWire(new Request(url, { method, headers }), headers)
  return forWire(new Request(url, { method, headers, body: bodyStream(req), duplex: 'half' } as RequestInit), headers)
}

/**
 * Node's headers as `name: value` strings: Node's own object when every value
 * already is one (nearly always over HTTP/1.1), else a copy with list values
 * joined and HTTP/2 pseudo-headers left out.
 */
function plainHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  let plain = true
  for (const name in headers) {
    if (typeof headers[name] !== 'string' || name[0] === ':') {
      plain = false
      break
    }
  }
  if (plain) return headers as Record<string, string>
  const copy: Record<string, string> = {}
  for (const name in headers) {
    const value = headers[name]
    if (value !== undefined && name[0] !== ':') copy[name] = typeof value === 'string' ? value : value.join(', ')
  }
  return copy
}

/** The request body as a byte stream with backpressure: one chunk queued at most, then the socket waits. */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let controller: ReadableStreamDefaultController<Uint8Array>
  let ended = false
  const stop = () => {
    ended = true
    req.off('data', onData)
    req.off('end', onEnd)
    req.off('error', onAborted)
    req.off('close', onClose)
  }
  const onData = (chunk: Buffer) => {
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
    if ((controller.desiredSize ?? 1) <= 0) req.pause()
  }
  const onEnd = () => {
    stop()
    controller.close()
  }
  const onAborted = () => {
    stop()
    controller.error(new Error('The client aborted the request body.'))
  }
  // `close` after `end` is the normal end of a request; before it, the client went away.
  const onClose = () => {
    if (!ended) onAborted()
  }
  return new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController
      if (req.destroyed) return void onAborted()
      req.on('data', onData)
      req.on('end', onEnd)
      req.on('error', onAborted)
      req.on('close', onClose)
      req.pause()
    },
    pull() {
      if (!ended) req.resume()
    },
    cancel() {
      stop()
    },
  })
}
