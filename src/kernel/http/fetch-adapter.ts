import { ApiError } from '../errors/api-error.js'
import { payloadTooLarge } from '../errors/payload-too-large.js'
import { RecordHeaders } from './record-headers.js'
import type { Reply } from './reply.js'
import type { RequestHeaders, SimRequest } from './sim-request.js'
import { statusText } from './status-text.js'

/**
 * Where a `Response` made by `toFetchResponse` keeps its reply. A side channel
 * on purpose: between the handler and the server stands msw's `getResponse`,
 * which passes on a `Response` and nothing else, so no parameter can carry the
 * reply across it; a symbol is invisible to other code.
 */
const REPLY = Symbol.for('multi-area-mock.reply')

/** Set on a `Request` whose caller writes the reply itself (see `forWire`): the headers it was made from. A symbol for the same reason as `REPLY`: msw hands the handler the `Request` only. */
const WIRE = Symbol.for('multi-area-mock.wire')

type WireRequest = Request & { [WIRE]?: RequestHeaders }

/**
 * Marks a request as one whose answer a server writes from the reply itself
 * (`replyOf`), so the `Response` made for it carries no body stream: nobody
 * would read it, and making one costs time per request (bench/README.md);
 * nor headers (the server writes them from the reply too): it has the status
 * only. In-process and browser requests are never marked and get the whole
 * `Response`. `headers` (lowercase names, values
 * joined) are the ones the request was made with: the routes read them as they
 * are instead of through the request's `Headers`, as the fast path does.
 *
 * @example
 * const response = await getResponse(simulator.handlers, forWire(new Request(url, { headers }), headers))
 * writeReply(res, replyOf(response)!)
 */
export function forWire(request: Request, headers: Readonly<Record<string, string>>): Request {
  ;(request as WireRequest)[WIRE] = new RecordHeaders(headers)
  return request
}

/**
 * A Fetch `Request` as the routes see it (msw, `sim.fetch`, the browser). The
 * body is streamed with the limit enforced chunk by chunk; the headers of a
 * request marked `forWire` are read from the object it was made with.
 *
 * @example
 * const reply = await route.handle({ request: fromFetchRequest(request), url, params })
 */
export function fromFetchRequest(request: Request): SimRequest {
  let bodyText: string | undefined
  return {
    method: request.method,
    url: request.url,
    headers: (request as WireRequest)[WIRE] ?? request.headers,
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
 * `fetch` reject under msw. For a request marked `forWire` only the status is
 * set: the server writes the reply's headers and text (`replyOf`).
 *
 * @example
 * return toFetchResponse(json({ ok: true }), request)
 */
export function toFetchResponse(reply: Reply, request?: Request): Response {
  const wire = request !== undefined && (request as WireRequest)[WIRE] !== undefined
  const response =
    reply.status === 0
      ? Response.error()
      : wire
        ? new Response(null, { status: reply.status })
        : new Response(reply.stream ?? reply.body, { status: reply.status, statusText: statusText(reply.status), headers: reply.headers })
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
