import type { IncomingMessage } from 'node:http'
import { ApiError } from '../../kernel/errors/api-error.js'
import { invalidPathError } from '../../kernel/errors/invalid-path-error.js'
import { CONTROL_PREFIX } from '../../simulator/simulator.js'
import { type CorsPolicy, NO_CORS } from './cors.js'
import type { HostPolicy } from './host-policy.js'

/** What the gate decided about one request. */
export interface GateVerdict {
  /** The request's path, normalised once, as the route table reads it: what every later step (token, pages, routes, proxy) judges. */
  path: string
  /** The request's absolute URL (made when first read: most requests never need it). */
  readonly url: URL
  /** The CORS headers its answer carries (none for an origin that is not allowed). */
  cors: Readonly<Record<string, string>>
  /** Why it is refused before anything else looks at it, if it is. */
  refused?: ApiError
  /** The request needs the control token: its path is the control API's (or the inspector's data). */
  guarded: boolean
  /** The `Host` header when it may vouch for an `Origin` naming it (same origin): allowed by name, not only by `--allowed-host '*'`. */
  vouchingHost?: string
}

/** What the gate is told about the server. */
export interface GateOptions {
  hosts: HostPolicy
  cors: CorsPolicy
  /** `http://127.0.0.1:4000`: the base of each request's URL. */
  origin: string
  /** Paths under the control prefix that hold nothing of the world and need no token (the docs page, the inspector's files). */
  isPublic: (path: string) => boolean
}

/**
 * The first step of every request to the server, simulated or proxied, before
 * any route, page or upstream sees it (D27): the `Host` must be allowed (DNS
 * rebinding), an `Origin` must be allowed (any web page the developer visits
 * could otherwise act on the world), a control request a browser marks as
 * sent from another site without an `Origin` (an `<img>`, a link) is refused,
 * and the path is normalised once, with dot-segments and backslashes refused,
 * so the control token and the routes judge the same path.
 *
 * @example
 * const verdict = gate.check(req)
 * if (verdict.refused) return errorResponse(verdict.refused)
 */
export class RequestGate {
  readonly #options: GateOptions

  constructor(options: GateOptions) {
    this.#options = options
  }

  /** Throws a `TypeError` for a target that makes no URL (as `new URL` does); the server answers it 400. */
  check(req: IncomingMessage): GateVerdict {
    const { hosts, cors, origin: base, isPublic } = this.#options
    const verdict = new Verdict(base, req.url ?? '/')
    const path = verdict.path
    verdict.guarded = isControlPath(path) && !isPublic(path)
    const host = req.headers.host
    // HTTP/1.0 may leave Host out; HTTP/1.1 must send it (RFC 9112 §3.2), and every browser does.
    if (host === undefined && req.httpVersionMinor >= 1) return verdict.refuse(missingHost())
    // A name let in only by `--allowed-host '*'` may be a rebinding page's own: it never makes that page same-origin.
    const vouching = host !== undefined && hosts.knowsByName(host) ? host : undefined
    if (host !== undefined && vouching === undefined && !hosts.allows(host)) return verdict.refuse(hostNotAllowed(host))
    verdict.vouchingHost = vouching
    const origin = headerText(req.headers.origin)
    if (origin !== undefined && !cors.allows(origin, vouching)) return verdict.refuse(originNotAllowed(origin))
    if (origin === undefined && verdict.guarded && fromAnotherSite(req.headers['sec-fetch-site'])) return verdict.refuse(siteNotAllowed())
    verdict.cors = cors.headersFor(origin ?? null, vouching)
    if (verdict.dotted) verdict.refused = invalidPathError()
    return verdict
  }
}

/** Characters a path can have that the URL parser leaves as they are (RFC 3986 `pchar` without `%`). */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/

/** One request's verdict; the URL is parsed only when the path needs it (`%`, a dot-segment, odd characters) or someone reads it. */
class Verdict implements GateVerdict {
  readonly path: string
  /** The target has `.`/`..` segments (plain or encoded) or backslashes. */
  readonly dotted: boolean
  guarded = false
  vouchingHost: string | undefined
  cors: Readonly<Record<string, string>> = NO_CORS
  refused?: ApiError
  readonly #base: string
  readonly #target: string
  #url: URL | undefined

  constructor(base: string, target: string) {
    this.#base = base
    this.#target = target
    const raw = pathOf(target)
    this.dotted = hasDotSegmentOrBackslash(raw)
    // The common case: nothing the parser would change, so no parse per request.
    this.path = !this.dotted && PLAIN_PATH.test(raw) ? raw : this.url.pathname
  }

  get url(): URL {
    this.#url ??= new URL(`${this.#base}${this.#target}`)
    return this.#url
  }

  refuse(error: ApiError): GateVerdict {
    this.cors = NO_CORS
    this.refused = error
    return this
  }
}

/**
 * The control API's paths, as the route table sees them: `/__mock` and everything under it.
 *
 * @example
 * isControlPath('/__mock/state') // true
 * isControlPath('/__mockery')    // false
 */
export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)
}

/**
 * The path of a request target as sent, without the query.
 *
 * @example
 * pathOf('/core/users?limit=5') // '/core/users'
 */
export function pathOf(target: string): string {
  const end = target.indexOf('?')
  return end === -1 ? target : target.slice(0, end)
}

/** `.`/`..` segments, plain or percent-encoded, or a backslash, in a request's path. */
function hasDotSegmentOrBackslash(path: string): boolean {
  if (path.includes('\\') || /%5c/i.test(path)) return true
  // Most paths have no segment starting with a dot or `%`: no split needed.
  if (!path.includes('/.') && !/\/%2e/i.test(path)) return false
  return path.split('/').some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment))
}

/**
 * A browser's `Sec-Fetch-Site` saying the request was sent by a page of another
 * origin: `cross-site`, or `same-site` (another origin of the same site).
 * `same-origin` (the inspector, the docs page), `none` (the address bar, a
 * bookmark) and no header (curl, tests, older browsers) pass. Read only when
 * there is no `Origin`: with one, the origin rule decides, more precisely.
 */
function fromAnotherSite(value: string | string[] | undefined): boolean {
  const site = headerText(value)?.trim().toLowerCase()
  return site === 'cross-site' || site === 'same-site'
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value
}

function missingHost(): ApiError {
  return new ApiError(400, 'bad_request', 'An HTTP/1.1 request must carry a Host header.')
}

function hostNotAllowed(host: string): ApiError {
  return new ApiError(
    403,
    'host_not_allowed',
    `Requests for host "${shown(host)}" are refused: only localhost, IP addresses and the address the server listens on are answered. To allow this host, start the server with --allowed-host ${hostOnly(host)}.`,
  )
}

function originNotAllowed(origin: string): ApiError {
  return new ApiError(
    403,
    'origin_not_allowed',
    `Requests from origin "${shown(origin)}" are refused: only loopback origins (http://localhost:*, http://127.0.0.1:*, http://[::1]:*) and this server's own are allowed. To allow this one, start the server with --cors-origin ${shown(origin)}.`,
  )
}

function siteNotAllowed(): ApiError {
  return new ApiError(
    403,
    'site_not_allowed',
    `The browser marked this control request as sent by a page of another site or origin (Sec-Fetch-Site), without an Origin: a link, an image or an embed on some page. Use the control API from this server's own pages (the inspector at ${CONTROL_PREFIX}/ui), by typing its address, or from a script whose origin is allowed (--cors-origin).`,
  )
}

/** A header value as a message may show it: printable, and not long enough to flood a log. */
function shown(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '?').slice(0, 200)
}

function hostOnly(host: string): string {
  return shown(host).replace(/:\d*$/, '')
}
