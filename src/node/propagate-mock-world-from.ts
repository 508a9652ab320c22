import { requestedWorld, WORLD_HEADER } from '../simulator/worlds/worlds.js'
import { headerReader, type IncomingRequestLike, isOnServer, mockServers, type PropagateMockWorldOptions, urlOf } from './propagate-mock-world.js'

/**
 * Gives the headers of the request being handled: Fetch `Headers` (what
 * Next.js's `headers()` resolves to) or Node's header object; `undefined`, a
 * throw or a rejection outside a request.
 */
export type IncomingHeadersSource = () => IncomingRequestLike['headers'] | undefined | Promise<IncomingRequestLike['headers'] | undefined>

/**
 * `propagateMockWorld` for frameworks that let no middleware wrap the
 * handling of a request, but give its headers anywhere while it is handled
 * (Next.js: `headers()` from `next/headers`). Every global `fetch` to
 * `mockServerUrl` (default: `MULTI_AREA_MOCK_URL`) asks `incomingHeaders` for
 * the incoming request's headers and sends its world (the `x-mock-world`
 * header or the `mock-world` cookie) as `x-mock-world`. Other URLs never call
 * it; a fetch that names a world keeps it; where the source gives no headers,
 * throws or rejects (outside a request), the fetch goes as it is. Call it once
 * at start-up, only under test; it returns a function that turns it off.
 *
 * @example
 * // instrumentation.js of a Next.js app
 * export async function register() {
 *   if (process.env.NEXT_RUNTIME === 'nodejs' && process.env.MULTI_AREA_MOCK_URL) {
 *     const { headers } = await import('next/headers')
 *     const { propagateMockWorldFrom } = await import('multi-area-mock/node')
 *     propagateMockWorldFrom(headers)
 *   }
 * }
 */
export function propagateMockWorldFrom(incomingHeaders: IncomingHeadersSource, options: PropagateMockWorldOptions = {}): () => void {
  if (typeof incomingHeaders !== 'function') {
    throw new TypeError(`propagateMockWorldFrom: give a function that returns the incoming request's headers (e.g. headers from next/headers), got ${typeof incomingHeaders}.`)
  }
  const servers = mockServers(options, 'propagateMockWorldFrom')
  const original = globalThis.fetch
  let on = true
  /** The world the incoming request names, `null` without one or outside a request. */
  const incomingWorld = async (): Promise<string | null> => {
    try {
      const headers = await incomingHeaders()
      return headers === undefined ? null : requestedWorld({ headers: headerReader({ headers } as IncomingRequestLike) })
    } catch {
      // Outside a request (Next.js throws there): nothing to carry.
      return null
    }
  }
  const withWorld = async (input: Parameters<typeof fetch>[0], init: RequestInit | undefined): Promise<Response> => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined))
    const world = headers.has(WORLD_HEADER) ? null : await incomingWorld()
    if (world === null) return original(input, init)
    headers.set(WORLD_HEADER, world)
    return original(input, { ...init, headers })
  }
  globalThis.fetch = (input, init) => {
    const url = on ? urlOf(input) : undefined
    // Only the simulator's URLs ask the source: in Next.js, reading headers() makes a page dynamic.
    return url !== undefined && isOnServer(servers, url) ? withWorld(input, init) : original(input, init)
  }
  return () => {
    on = false
  }
}
