/**
 * Where the control API lives on the server (D26). The same value as the
 * simulator's `CONTROL_PREFIX`, kept here so a test process that only talks to a
 * server does not load the whole simulator to learn it.
 */
export const CONTROL_PREFIX_PATH = '/__mock'

/** The environment variable the Playwright fixture and `propagateMockWorld` read the server's URL from. */
export const MOCK_URL_ENV = 'MULTI_AREA_MOCK_URL'

/**
 * The simulator server refused a control call or could not be reached
 * (`status` 0); `body` is its JSON error (`{ error, message, ... }`).
 *
 * @example
 * try { await world.clock.set('yesterday') } catch (error) { if (error instanceof MockServerError) console.log(error.status) } // 400
 */
export class MockServerError extends Error {
  readonly status: number
  readonly body: unknown

  constructor(message: string, status: number, body: unknown) {
    super(message)
    this.name = 'MockServerError'
    this.status = status
    this.body = body
  }
}

/**
 * A server URL as given (`http://127.0.0.1:4000/`), checked and without the
 * trailing slash; throws a `TypeError` naming the value otherwise.
 *
 * @example
 * normalizeServerUrl('http://127.0.0.1:4000/') // 'http://127.0.0.1:4000'
 */
export function normalizeServerUrl(url: string | undefined, name = 'mockServerUrl'): string {
  if (url === undefined || url.trim() === '') {
    throw new TypeError(`${name} is not set: give the simulator server's URL (e.g. http://127.0.0.1:4000) or set ${MOCK_URL_ENV}.`)
  }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new TypeError(`${name} "${url}" is not a URL: expected e.g. http://127.0.0.1:4000.`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`${name} "${url}" must be an http: or https: URL.`)
  if (parsed.search || parsed.hash) throw new TypeError(`${name} "${url}" must not have a query or fragment.`)
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`
}
