import type { Reply } from '../../kernel/http/reply.js'
import { RESPONSE_HEADERS } from '../../kernel/http/response-headers.js'
import { isLoopbackHost } from './loopback-host.js'

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS'
/**
 * The headers the OpenAPI document names, readable by browser apps, and
 * `Preference-Applied` (RFC 7240): the answer to a `Prefer: code=…` or
 * `delay=…` request, which an app under test reads to know it was honoured.
 */
const EXPOSED_HEADERS = [...Object.keys(RESPONSE_HEADERS), 'Preference-Applied'].join(', ')

/** Headers for a request that is not a CORS request (no `Origin`): none, and one shared object. */
export const NO_CORS: Readonly<Record<string, string>> = Object.freeze({})

/** `--cors-origin` values that are not an exact origin. */
export const ANY_ORIGIN = '*'

/**
 * Which web origins may call the server, and the CORS headers they get (D27).
 * Loopback origins on any port (`http://localhost:*`, `http://127.0.0.1:*`,
 * `http://[::1]:*`) and the server's own origin are always allowed; others
 * only when listed (`--cors-origin`), or every origin with `*`. An allowed
 * origin is echoed with credentials; under `*` an origin that is not listed
 * gets `Access-Control-Allow-Origin: *` without credentials, as CORS requires.
 *
 * @example
 * const cors = new CorsPolicy(['https://app.example.com'])
 * cors.allows('http://localhost:5173', '127.0.0.1:4000') // true
 * cors.allows('https://evil.example', '127.0.0.1:4000')  // false
 */
export class CorsPolicy {
  readonly #listed: ReadonlySet<string>
  readonly #any: boolean
  /** Echoed answers, kept per origin: a page sends the same one on every request. */
  readonly #echoed = new Map<string, Readonly<Record<string, string>>>()
  /** Whether an origin is trusted, kept per origin and host, for the same reason. */
  readonly #trust = new Map<string, boolean>()

  constructor(origins: readonly string[] = []) {
    this.#any = origins.includes(ANY_ORIGIN)
    this.#listed = new Set(origins.filter((origin) => origin !== ANY_ORIGIN).map(serialisedOrigin))
  }

  /** Whether a request with this `Origin` may be answered; `host` is its `Host` header, for same-origin requests. */
  allows(origin: string, host: string | undefined): boolean {
    return this.#any || this.#trusted(origin, host)
  }

  /** The CORS headers of an answer to a request whose `Origin` is allowed (or `null` without one). */
  headersFor(origin: string | null, host: string | undefined): Readonly<Record<string, string>> {
    if (origin === null) return NO_CORS
    if (this.#trusted(origin, host)) return this.#echo(origin)
    return this.#any ? ANY : NO_CORS
  }

  /** The answer to an allowed preflight: the methods and the headers the browser asks for. */
  preflight(origin: string | null, host: string | undefined, requestedHeaders: string | undefined): Reply {
    return {
      status: 204,
      headers: {
        ...this.headersFor(origin, host),
        'access-control-allow-methods': ALLOWED_METHODS,
        'access-control-allow-headers': requestedHeaders ?? 'Content-Type, Authorization',
        'access-control-max-age': '600',
      },
      body: null,
    }
  }

  #trusted(origin: string, host: string | undefined): boolean {
    const key = `${origin} ${host ?? ''}`
    let trusted = this.#trust.get(key)
    if (trusted === undefined) {
      trusted = this.#judge(origin, host)
      // Bounded: a client sending a new Origin each time must not grow it.
      if (this.#trust.size >= 256) this.#trust.clear()
      this.#trust.set(key, trusted)
    }
    return trusted
  }

  #judge(origin: string, host: string | undefined): boolean {
    const lower = origin.toLowerCase()
    if (this.#listed.has(lower)) return true
    const url = parseOrigin(lower)
    if (url === undefined) return false
    // Same origin: the page was served by this server (the inspector, the docs page).
    if (host !== undefined && url.host === host.toLowerCase()) return true
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname)
  }

  #echo(origin: string): Readonly<Record<string, string>> {
    let headers = this.#echoed.get(origin)
    if (headers === undefined) {
      headers = Object.freeze({
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': EXPOSED_HEADERS,
        vary: 'Origin',
      })
      // Bounded: a client sending a new Origin each time must not grow it.
      if (this.#echoed.size >= 256) this.#echoed.clear()
      this.#echoed.set(origin, headers)
    }
    return headers
  }
}

const ANY: Readonly<Record<string, string>> = Object.freeze({ 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS, vary: 'Origin' })

/** An `Origin` header as a URL, when it is one (`null` and garbage are not). */
function parseOrigin(origin: string): URL | undefined {
  try {
    const url = new URL(origin)
    return url.origin === origin ? url : undefined
  } catch {
    return undefined
  }
}

/** An origin as browsers send it (lowercase host, no default port): `HTTP://App.test:80` is `http://app.test`. */
function serialisedOrigin(value: string): string {
  try {
    const origin = new URL(value).origin
    return origin === 'null' ? value : origin
  } catch {
    return value
  }
}

/**
 * A `--cors-origin` value checked: `*`, `null`, or an http(s) origin
 * (`scheme://host[:port]`, no path). Returns what is wrong, if anything.
 *
 * @example
 * corsOriginProblem('https://app.example.com/x') // 'expected an origin without a path, such as https://app.example.com'
 */
export function corsOriginProblem(value: string): string | undefined {
  if (value === ANY_ORIGIN || value === 'null') return undefined
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'expected an origin such as https://app.example.com, "null" or "*"'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'expected an http or https origin such as https://app.example.com'
  if (url.pathname !== '/' || value.endsWith('/') || url.search || url.hash || url.username || url.password) return `expected an origin without a path, such as ${url.origin}`
  return undefined
}
