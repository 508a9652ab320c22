import { ApiError } from '../errors/api-error.js'
import { payloadTooLarge } from '../errors/payload-too-large.js'
import type { Reply } from './reply.js'
import type { SimRequest } from './sim-request.js'
import { statusText } from './status-text.js'

/** Where a `Response` made by `toFetchResponse` keeps its reply (a symbol: invisible to other code). */
const REPLY = Symbol.for('multi-area-mock.reply')

/** Set on a `Request` whose caller writes the reply itself (see `forWire`). */
const WIRE = Symbol.for('multi-area-mock.wire')

/**
 * Marks a request as one whose answer a server writes from the reply itself
 * (`replyOf`), so the `Response` made for it carries no body stream: nobody
 * would read it, and making one costs time per request (bench/README.md).
 * Status and headers are there as always; in-process and browser requests are
 * never marked and get the whole `Response`.
 *
 * @example
 * const response = await getResponse(simulator.handlers, forWire(new Request(url)))
 * writeReply(res, replyOf(response)!)
 */
export function forWire(request: Request): Request {
  ;(request as Request & { [WIRE]?: true })[WIRE] = true
  return request
}

/**
 * A Fetch `Request` as the routes see it (msw, `sim.fetch`, the browser). The
 * body is streamed with the limit enforced chunk by chunk.
 *
 * @example
 * const reply = await route.handle({ request: fromFetchRequest(request), url, params })
 */
export function fromFetchRequest(request: Request): SimRequest {
  let bodyText: string | undefined
  return {
    method: request.method,
    url: request.url,
    headers: request.headers,
    get bodyText() {
      return bodyText
    },
    async readText(limit: number) {
      if (bodyText !== undefined) return bodyText
      bodyText = await streamText(request, limit)
      return bodyText
    },
  }
}

/**
 * The one place a reply becomes a Fetch `Response`, with the standard reason
 * phrase; status 0 (a dropped connection) is a network error, which makes
 * `fetch` reject under msw. For a request marked `forWire` the body is left
 * out: the server writes the reply's text (`replyOf`).
 *
 * @example
 * return toFetchResponse(json({ ok: true }), request)
 */
export function toFetchResponse(reply: Reply, request?: Request): Response {
  const body = request !== undefined && (request as Request & { [WIRE]?: true })[WIRE] === true ? null : (reply.stream ?? reply.body)
  const response = reply.status === 0 ? Response.error() : new Response(body, { status: reply.status, statusText: statusText(reply.status), headers: reply.headers })
  ;(response as Response & { [REPLY]?: Reply })[REPLY] = reply
  return response
}

/**
 * The reply a `Response` was made from by `toFetchResponse`, so a server can
 * write its text without reading the stream again; `undefined` for any other.
 *
 * @example
 * const reply = replyOf(response) ?? { status: response.status, headers: {}, body: await response.text() }
 */
export function replyOf(response: Response): Reply | undefined {
  return (response as Response & { [REPLY]?: Reply })[REPLY]
}

async function streamText(request: Request, limit: number): Promise<string> {
  if (!request.body) return ''
  const reader = request.body.getReader()
  const decoder = new TextDecoder('utf-8', { fatal: false })
  let size = 0
  let text = ''
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      // The client went away mid-body (or the server cut it off for being slow):
      // its doing, not a simulator bug, so never an internal error.
      throw new ApiError(400, 'bad_request', 'The request body could not be read to its end: the client aborted it.')
    })
    if (done) break
    size += value.byteLength
    if (size > limit) {
      // Not awaited: msw clones (tees) the request, and cancelling one branch of a
      // tee only settles once the other branch is cancelled too, which never happens.
      reader.cancel().catch(() => undefined)
      throw payloadTooLarge(limit)
    }
    text += decoder.decode(value, { stream: true })
  }
  return text + decoder.decode()
}
