import type { IncomingMessage } from 'node:http'
import type { Reply } from '../kernel/http/reply.js'
import { RESPONSE_HEADERS } from '../kernel/http/response-headers.js'

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS'
/**
 * The headers the OpenAPI document names, readable by browser apps, and
 * `Preference-Applied` (RFC 7240): the answer to a `Prefer: code=…` or
 * `delay=…` request, which an app under test reads to know it was honoured.
 */
const EXPOSED_HEADERS = [...Object.keys(RESPONSE_HEADERS), 'Preference-Applied'].join(', ')

/**
 * Open CORS (D27): any origin, credentials allowed (the request's origin is
 * echoed, as `*` is not allowed with credentials), our custom headers exposed
 * so a browser app can read `X-Total-Count` and `Link`.
 */
export function corsHeaders(request: Pick<IncomingMessage, 'headers'>): Readonly<Record<string, string>> {
  return corsHeadersFor(headerOf(request, 'origin') ?? null)
}

/**
 * The CORS headers for a request's `Origin` (or `null` without one), also for
 * answers written before a request is parsed (requests Node could not parse).
 *
 * @example
 * corsHeadersFor('http://localhost:5173')['access-control-allow-origin'] // 'http://localhost:5173'
 */
export function corsHeadersFor(origin: string | null): Readonly<Record<string, string>> {
  return origin
    ? {
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': EXPOSED_HEADERS,
        vary: 'Origin',
      }
    : ANY_ORIGIN
}

/** The same object for every request without an `Origin` (most of them): nothing to allocate. */
const ANY_ORIGIN: Readonly<Record<string, string>> = Object.freeze({ 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS })

/** The answer to a CORS preflight: whatever the browser asks for is allowed. */
export function preflightReply(request: Pick<IncomingMessage, 'headers'>): Reply {
  return {
    status: 204,
    headers: {
      ...corsHeaders(request),
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': headerOf(request, 'access-control-request-headers') ?? 'Content-Type, Authorization',
      'access-control-max-age': '600',
    },
    body: null,
  }
}

function headerOf(request: Pick<IncomingMessage, 'headers'>, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}
