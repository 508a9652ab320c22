import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { ApiError } from '../../kernel/errors/api-error.js'
import { payloadTooLarge } from '../../kernel/errors/payload-too-large.js'
import type { RequestHeaders, SimRequest } from '../../kernel/http/sim-request.js'

/**
 * Node's own request as the routes see it (the CLI server's fast path): no
 * Fetch `Request`, `Headers` or body stream is built. Headers are read from
 * `req.headers` as they are; the body is buffered only when a route reads it,
 * with the limit checked chunk by chunk, and decoded as `TextDecoder` does on
 * the Fetch path (a UTF-8 BOM dropped), so both read the same text.
 *
 * @example
 * const reply = await engineOf(simulator).reply(fromNodeRequest(req, 'http://127.0.0.1:4000'))
 */
export function fromNodeRequest(req: IncomingMessage, origin: string): SimRequest {
  return new NodeRequest(req, origin)
}

/** A class, not an object literal with closures: one shape and one allocation per request. */
class NodeRequest implements SimRequest {
  readonly method: string
  readonly url: string
  // The plain headers object, not `req`: nothing that keeps the headers keeps each request's socket and parser state.
  readonly headers: NodeHeaders
  #bodyText: string | undefined
  readonly #req: IncomingMessage

  constructor(req: IncomingMessage, origin: string) {
    this.method = req.method ?? 'GET'
    this.url = `${origin}${req.url ?? '/'}`
    this.headers = new NodeHeaders(req.headers)
    this.#req = req
  }

  get bodyText(): string | undefined {
    return this.#bodyText
  }

  async readText(limit: number): Promise<string> {
    // As on the Fetch path, where a GET or HEAD request has no body at all.
    if (this.#bodyText === undefined) this.#bodyText = this.method === 'GET' || this.method === 'HEAD' ? '' : await readBody(this.#req, limit)
    return this.#bodyText
  }
}

class NodeHeaders implements RequestHeaders {
  readonly #headers: IncomingHttpHeaders

  constructor(headers: IncomingHttpHeaders) {
    this.#headers = headers
  }

  get(name: string): string | null {
    const value = this.#headers[name.toLowerCase()]
    if (value === undefined) return null
    return typeof value === 'string' ? value : value.join(', ')
  }

  entries(): Iterable<[string, string]> {
    // A plain array, not a generator over Object.entries: the journal reads every request's headers.
    const pairs: Array<[string, string]> = []
    for (const name of Object.keys(this.#headers)) {
      const value = this.#headers[name]
      if (value !== undefined) pairs.push([name, typeof value === 'string' ? value : value.join(', ')])
    }
    return pairs
  }
}

/** Stateless (no `stream` option), so one serves every request. */
const UTF8 = new TextDecoder()

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      req.off('close', onClose)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      done()
      // The server discards the rest once the 413 is written (see server.ts).
      req.pause()
      reject(payloadTooLarge(limit))
    }
    const onEnd = () => {
      done()
      resolve(UTF8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)))
    }
    // A stream error here is the client's doing (aborted, or cut off by the request
    // timeout): a 400 if anyone still listens, never an internal error.
    const onError = () => {
      done()
      reject(new ApiError(400, 'bad_request', 'The request body could not be read to its end: the client aborted it.'))
    }
    // A client that hangs up mid-upload gets no answer anyway; this keeps it out of
    // the internal-error log (it is not a simulator bug).
    const onClose = () => {
      done()
      reject(new ApiError(400, 'bad_request', 'The client closed the connection before sending the whole body.'))
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
    req.on('close', onClose)
  })
}
