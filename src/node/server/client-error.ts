import type { CorsPolicy } from '../gate/cors.js'

/** What Node's HTTP parser hands to `clientError`: the error and the bytes it was parsing. */
export type ClientError = NodeJS.ErrnoException & { rawPacket?: Buffer }

/** An `Origin` as browsers send it: `scheme://host[:port]`, or `null`. */
const ORIGIN = /^(?:[a-z][a-z0-9+.-]*:\/\/[^\s/]+|null)$/i

/**
 * The raw HTTP/1.1 answer to a request that never became a `Request`: Node
 * could not parse it (broken request line, header block over the limit) or it
 * was too slow (headers or body past the server's timeouts). Still a D9 JSON
 * body, and still with the CORS headers, so a browser shows our error instead
 * of a CORS failure, when the `Origin` read from the bytes Node had parsed is
 * allowed (not knowing the `Host`, the same-origin case is not).
 * `undefined` when there is nobody to answer (a reset).
 *
 * @example
 * const reply = clientErrorReply(error, new CorsPolicy())
 * if (reply) socket.end(reply)
 */
export function clientErrorReply(error: ClientError, cors: CorsPolicy): string | undefined {
  if (error.code === 'ECONNRESET') return undefined
  const [status, code, message] = describe(error.code)
  const body = JSON.stringify({ error: code, message })
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    ...corsOf(cors, originIn(error.rawPacket)),
    connection: 'close',
  }
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  return `HTTP/1.1 ${status}\r\n${head}\r\n${body}`
}

function describe(code: string | undefined): [status: string, code: string, message: string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return ['431 Request Header Fields Too Large', 'headers_too_large', 'The request line and headers are larger than the server accepts (16 KiB).']
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return ['408 Request Timeout', 'request_timeout', 'The request was not received in time (--headers-timeout, --request-timeout); the connection is closed.']
    default:
      return ['400 Bad Request', 'bad_request', 'The request is not valid HTTP.']
  }
}

function originIn(raw: Buffer | undefined): string | null {
  if (!raw) return null
  const match = /\r\norigin:[ \t]*([^\r\n]*?)[ \t]*\r\n/i.exec(raw.toString('latin1'))
  return match && ORIGIN.test(match[1]!) ? match[1]! : null
}

function corsOf(cors: CorsPolicy, origin: string | null): Readonly<Record<string, string>> {
  return origin !== null && cors.allows(origin, undefined) ? cors.headersFor(origin, undefined) : {}
}
