import { AsyncLocalStorage } from 'node:async_hooks'
import { requestedWorld, WORLD_HEADER } from '../simulator/worlds/worlds.js'
import { MOCK_URL_ENV, normalizeServerUrl } from '../testing/mock-server.js'

/** Options of `propagateMockWorld`. */
export interface PropagateMockWorldOptions {
  /** The simulator server (or several) the app's server fetches from; default: the `MULTI_AREA_MOCK_URL` environment variable. */
  mockServerUrl?: string | readonly string[] | undefined
}

/** An incoming request: Node's (`IncomingMessage`, Express's, Connect's) or a Fetch `Request`. */
export type IncomingRequestLike = { readonly headers: { get(name: string): string | null } } | { readonly headers: Readonly<Record<string, string | string[] | undefined>> }

/**
 * A `(req, res, next)` middleware; it returns what `next` returns, so it also
 * wraps a framework's request hook: `propagate(event.request, null, () => resolve(event))`.
 */
export type MockWorldMiddleware = <T>(req: IncomingRequestLike, res: unknown, next: () => T) => T

/** One middleware's part of a request's context: where its world goes. */
interface Binding {
  readonly servers: readonly ServerUrl[]
  readonly world: string
}

/** A simulator server the app fetches from, as `mockServers` reads it. */
export interface ServerUrl {
  readonly origin: string
  /** Path prefix without the trailing slash; `''` at the root. */
  readonly path: string
}

/**
 * What every copy of this module in the process shares: the one fetch wrapper
 * and the context it reads. `fetch` is process-wide, so its wrapper must be too;
 * keeping the context beside it (under a `Symbol.for` key rather than in this
 * module) means two copies of the package (a bundled and an installed one) add
 * one wrapper, not two. What differs between `propagateMockWorld` instances,
 * the server URLs and the world, lives only in the context of the requests each
 * one handles, never in shared state: an instance's settings cannot reach a
 * request another instance handled, and nothing is kept once requests end.
 */
interface Shared {
  readonly context: AsyncLocalStorage<readonly Binding[]>
  /** The wrappers this module put on `globalThis.fetch`. */
  readonly wrappers: WeakSet<typeof globalThis.fetch>
}

const SHARED = Symbol.for('multi-area-mock.propagate-mock-world')

/**
 * Carries the world of an incoming request (the `x-mock-world` header or the
 * `mock-world` cookie, as the Playwright fixture sets them) to every global
 * `fetch` to `mockServerUrl` made while that request is handled, as the
 * `x-mock-world` header. Outside a request, without a world, or for other URLs,
 * `fetch` is untouched; a request that already names a world keeps it.
 *
 * @example
 * import { createServer } from 'node:http'
 * import { propagateMockWorld } from 'multi-area-mock/node'
 * const propagate = propagateMockWorld({ mockServerUrl: process.env.MULTI_AREA_MOCK_URL })
 * createServer((req, res) => propagate(req, res, () => handle(req, res))).listen(3000)
 * // Express or Connect: app.use(propagateMockWorld({ mockServerUrl: 'http://127.0.0.1:4000' }))
 */
export function propagateMockWorld(options: PropagateMockWorldOptions = {}): MockWorldMiddleware {
  const servers = mockServers(options, 'propagateMockWorld')
  const shared = sharedState()
  wrapFetch(shared)
  return <T>(req: IncomingRequestLike, _res: unknown, next: () => T): T => {
    const world = requestedWorld({ headers: headerReader(req) })
    if (world === null) return next()
    // Someone may have replaced `fetch` since (a test double, a framework's own patch): wrap what is there now.
    wrapFetch(shared)
    return shared.context.run([...(shared.context.getStore() ?? []), { servers, world }], next)
  }
}

/** The servers `mockServerUrl` names (else `MULTI_AREA_MOCK_URL`), checked; `caller` starts the error messages. */
export function mockServers(options: PropagateMockWorldOptions, caller: string): readonly ServerUrl[] {
  const given = options.mockServerUrl ?? process.env[MOCK_URL_ENV]
  const list = typeof given === 'string' || given === undefined ? [given] : [...given]
  if (list.length === 0) throw new TypeError(`${caller}: mockServerUrl is an empty list; give at least one server URL.`)
  return list.map((url) => {
    const parsed = new URL(`${normalizeServerUrl(url, `${caller}: mockServerUrl`)}/`)
    return { origin: parsed.origin, path: parsed.pathname.replace(/\/$/, '') }
  })
}

/** Whether `url` is on one of `servers`: the same origin, at or under the server's path. */
export function isOnServer(servers: readonly ServerUrl[], url: URL): boolean {
  return servers.some((server) => server.origin === url.origin && (server.path === '' || url.pathname === server.path || url.pathname.startsWith(`${server.path}/`)))
}

/**
 * The world of the request being handled (the innermost `propagateMockWorld`),
 * for HTTP clients other than the global `fetch`: send it as `x-mock-world`.
 *
 * @example
 * await axios.get(url, { headers: { 'x-mock-world': currentMockWorld() ?? '' } })
 */
export function currentMockWorld(): string | undefined {
  return sharedState().context.getStore()?.at(-1)?.world
}

function sharedState(): Shared {
  const holder = globalThis as { [SHARED]?: Shared }
  return (holder[SHARED] ??= { context: new AsyncLocalStorage(), wrappers: new WeakSet() })
}

/** Wraps `globalThis.fetch` unless the current one is already our wrapper: at most one layer per replacement. */
function wrapFetch(shared: Shared): void {
  const original = globalThis.fetch
  if (typeof original !== 'function' || shared.wrappers.has(original)) return
  const wrapper: typeof globalThis.fetch = (input, init) => {
    const bindings = shared.context.getStore()
    if (bindings === undefined) return original(input, init)
    const world = worldFor(bindings, urlOf(input))
    if (world === undefined) return original(input, init)
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined))
    if (headers.has(WORLD_HEADER)) return original(input, init)
    headers.set(WORLD_HEADER, world)
    return original(input, { ...init, headers })
  }
  shared.wrappers.add(wrapper)
  globalThis.fetch = wrapper
}

/** The world for a URL: the innermost binding whose server the URL is on. */
function worldFor(bindings: readonly Binding[], url: URL | undefined): string | undefined {
  if (url === undefined) return undefined
  for (let i = bindings.length - 1; i >= 0; i--) {
    const binding = bindings[i]!
    if (isOnServer(binding.servers, url)) return binding.world
  }
  return undefined
}

/** The URL a `fetch` call asks for; `undefined` for a relative one. */
export function urlOf(input: Parameters<typeof globalThis.fetch>[0]): URL | undefined {
  try {
    return input instanceof Request ? new URL(input.url) : new URL(String(input))
  } catch {
    // A relative URL fails in fetch itself; not ours to judge.
    return undefined
  }
}

/** `get(name)` over Node's header object or Fetch `Headers`. */
export function headerReader(req: IncomingRequestLike): { get(name: string): string | null } {
  const headers = req.headers as { get?: unknown } & Record<string, string | string[] | undefined>
  if (typeof headers.get === 'function') return headers as unknown as { get(name: string): string | null }
  return {
    get(name) {
      const value = headers[name]
      return value === undefined ? null : Array.isArray(value) ? value.join('; ') : value
    },
  }
}
