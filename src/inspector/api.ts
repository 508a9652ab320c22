/** Where the page keeps the control token: this tab only, gone when it closes; never a URL, a cookie or a log. */
export const TOKEN_KEY = 'multi-area-mock:control-token'

/** A stand-in for the page's own host, to resolve a path as the browser will. */
const PAGE_HOST = 'page.invalid'

/** The world every request names when none is chosen. */
export const DEFAULT_WORLD = 'default'

/** A request the server refused: its status and the `message` of its JSON error body (D9). */
export class ApiProblem extends Error {
  readonly status: number
  readonly code: string

  constructor(status: number, code: string, message: string) {
    super(message)
    this.status = status
    this.code = code
  }
}

/** An answer: status, headers and the parsed JSON body (`null` without one). */
// biome-ignore lint/suspicious/noExplicitAny: the control API answers JSON the page reads field by field
export interface Answer<T = any> {
  status: number
  headers: Headers
  body: T
}

/**
 * How the page talks to the server: every request names the chosen world
 * (`x-mock-world`), and a request to the control API carries the control
 * token in `Authorization` when there is one, so neither is ever part of a
 * URL. The token goes nowhere else: an area's own API may be proxied to a
 * real backend (`serve --proxy`), which must never see it. A refused request
 * throws an `ApiProblem` with the server's own message.
 *
 * @example
 * const api = new Api('/__mock', () => sessionStorage.getItem(TOKEN_KEY), () => 'default')
 * const state = (await api.get('/__mock/state')).body
 */
export class Api {
  readonly control: string
  readonly #token: () => string | null
  readonly #world: () => string

  constructor(control: string, token: () => string | null, world: () => string) {
    this.control = control
    this.#token = token
    this.#world = world
  }

  /** Headers of a request to `url`: the world, and the token when there is one and `url` is the control API's. */
  headers(url: string, extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { 'x-mock-world': this.#world(), ...extra }
    const token = this.#token()
    if (token && this.#isControl(url)) headers.authorization = `Bearer ${token}`
    return headers
  }

  /** Whether `url` is on this page's server and under the control prefix, once resolved as `fetch` resolves it (`..`, `%2e%2e`). */
  #isControl(url: string): boolean {
    if (!url.startsWith('/') || url.startsWith('//')) return false
    const { host, pathname } = new URL(url, `http://${PAGE_HOST}`)
    return host === PAGE_HOST && (pathname === this.control || pathname.startsWith(`${this.control}/`))
  }

  // biome-ignore lint/suspicious/noExplicitAny: the control API answers JSON the page reads field by field
  get<T = any>(path: string): Promise<Answer<T>> {
    return this.send<T>('GET', path)
  }

  // biome-ignore lint/suspicious/noExplicitAny: the control API answers JSON the page reads field by field
  async send<T = any>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const init: RequestInit = { method, headers: this.headers(path, body === undefined ? {} : { 'content-type': 'application/json' }), cache: 'no-store' }
    if (body !== undefined) init.body = JSON.stringify(body)
    const response = await fetch(path, init)
    const text = await response.text()
    if (!response.ok) throw problemOf(method, path, response.status, text)
    return { status: response.status, headers: response.headers, body: parseJson(text) as T }
  }

  /**
   * `GET path` as a file, unparsed, for the page to save (a bundle): with the
   * same headers as every call, so the token stays out of the URL, where a
   * plain link would have to put it.
   *
   * @example
   * const bundle = await api.file('/__mock/bundle')
   */
  async file(path: string): Promise<Blob> {
    const response = await fetch(path, { headers: this.headers(path), cache: 'no-store' })
    if (!response.ok) throw problemOf('GET', path, response.status, await response.text())
    return await response.blob()
  }
}

/** A body as JSON, else as the text it is (`null` when empty). */
function parseJson(text: string): unknown {
  if (text === '') return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** A refused request as an `ApiProblem`: the `message` of its JSON error body (D9) and any `details`. */
function problemOf(method: string, path: string, status: number, text: string): ApiProblem {
  // biome-ignore lint/suspicious/noExplicitAny: an error body, read field by field
  const parsed: any = parseJson(text)
  const message = typeof parsed?.message === 'string' ? parsed.message : `${method} ${path} answered ${status}.`
  const details = Array.isArray(parsed?.details)
    ? parsed.details.map((detail: { path?: string; message?: string }) => `${detail.path ? `${detail.path}: ` : ''}${detail.message}`)
    : []
  return new ApiProblem(status, String(parsed?.error ?? status), [message, ...details].join(' '))
}

/** A thrown value as one line for the page. */
export function problemText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
