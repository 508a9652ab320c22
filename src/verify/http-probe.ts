import { CheckSkipped, ProbeError } from './failures.js'

/** One answer as a check sees it: the body parsed when it is JSON (`json` is `undefined` otherwise). */
export interface Observed {
  method: string
  url: string
  status: number
  headers: Headers
  text: string
  json: unknown
  /** `true` when the answer says it is JSON and parses as JSON. */
  isJson: boolean
}

/** What a check sends: a JSON body, or raw text with its own content type, query parameters, headers. */
export interface ProbeRequest {
  json?: unknown
  /** Raw body text (e.g. broken JSON); sent as `application/json` unless `headers` say otherwise. */
  body?: string
  query?: Record<string, string>
  headers?: Record<string, string>
}

/**
 * Requests to one area of the implementation under test, over plain `fetch`:
 * `path` is the interface's (`/api/v1.2/users`), appended to the area's base
 * URL. Every request has its own timeout; a failure to get any answer throws
 * a `ProbeError` with one readable line (refused, unknown host, timeout).
 *
 * @example
 * const admin = new AreaProbe('http://127.0.0.1:4000/admin', { timeoutMs: 5000 })
 * const reply = await admin.send('GET', '/api/v1.2/users', { query: { limit: '2' } })
 */
export class AreaProbe {
  readonly base: string
  readonly #timeoutMs: number
  readonly #headers: Record<string, string>
  readonly #readOnly: boolean

  /** `readOnly`: only GET and HEAD go out; anything else skips the check (a guard behind the checks' own `writes`). */
  constructor(base: string, options: { timeoutMs: number; headers?: Record<string, string>; readOnly?: boolean }) {
    this.base = base.replace(/\/+$/, '')
    this.#timeoutMs = options.timeoutMs
    this.#headers = options.headers ?? {}
    this.#readOnly = options.readOnly ?? false
  }

  /** The absolute URL of an interface path. */
  url(path: string, query?: Record<string, string>): string {
    const search = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : ''
    return `${this.base}${path}${search}`
  }

  async send(method: string, path: string, request: ProbeRequest = {}): Promise<Observed> {
    const url = this.url(path, request.query)
    if (this.#readOnly && method !== 'GET' && method !== 'HEAD') throw new CheckSkipped(`--read-only: would send ${method} ${path}`)
    const headers = new Headers({ accept: 'application/json', ...this.#headers })
    let body: string | undefined
    if (request.json !== undefined || request.body !== undefined) {
      body = request.body ?? JSON.stringify(request.json)
      headers.set('content-type', 'application/json')
    }
    for (const [name, value] of Object.entries(request.headers ?? {})) headers.set(name, value)
    let response: Response
    let text: string
    try {
      response = await fetch(url, { method, headers, body: body ?? null, redirect: 'manual', signal: AbortSignal.timeout(this.#timeoutMs) })
      text = await response.text()
    } catch (error) {
      throw new ProbeError(`${method} ${url}: ${describeFetchError(error, this.#timeoutMs)}`)
    }
    const contentType = response.headers.get('content-type') ?? ''
    let json: unknown
    let isJson = false
    if (/\bjson\b/i.test(contentType) && text !== '') {
      try {
        json = JSON.parse(text)
        isJson = true
      } catch {
        // Said to be JSON but is not: `isJson` stays false and the check says so.
      }
    }
    return { method, url, status: response.status, headers: response.headers, text, json, isJson }
  }
}

/** One line on why no answer came: the system's error code when there is one. */
export function describeFetchError(error: unknown, timeoutMs: number): string {
  const named = error as { name?: string; cause?: { code?: string; message?: string } } | undefined
  if (named?.name === 'TimeoutError' || named?.name === 'AbortError') return `no answer within ${formatMs(timeoutMs)}`
  const code = named?.cause?.code
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused (is the server running?)',
    ENOTFOUND: 'unknown host',
    EAI_AGAIN: 'host name lookup failed',
    ECONNRESET: 'the connection was reset',
    UND_ERR_SOCKET: 'the connection was closed before an answer',
    UND_ERR_HEADERS_TIMEOUT: `no answer within ${formatMs(timeoutMs)}`,
    CERT_HAS_EXPIRED: 'its TLS certificate has expired',
    DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  }
  if (code && known[code]) return known[code]
  const message = named?.cause?.message ?? (error instanceof Error ? error.message : String(error))
  return (code ? `${code}: ${message}` : message).split('\n')[0]!
}

/** `1500` → `1.5 s`, `200` → `200 ms`. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`
}
