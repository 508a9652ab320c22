import type { FaultRuleInput } from '../simulator/faults/fault-rule.js'
import type { FaultRuleView } from '../simulator/faults/faults.js'
import type { JournalEntry } from '../simulator/journal/journal-entry.js'
import type { JournalQuery } from '../simulator/journal/journal-query.js'
import type { ScenarioInput, WorldState } from '../simulator/state/scenario-schema.js'
import type { WorldBundle } from '../simulator/history/world-bundle.js'
import { CONTROL_PREFIX_PATH, MockServerError, normalizeServerUrl } from './mock-server.js'
import { WORLD_HEADER, type WorldInfo } from '../simulator/worlds/worlds.js'

/** How to reach the simulator server's control API. */
export interface MockServerOptions {
  /** The server's `--control-token`, when it was started with one. */
  controlToken?: string | undefined
  /** The `fetch` to call the server with (default: the global one). */
  fetch?: typeof globalThis.fetch | undefined
}

/** A new world: unset fields come from the server's options (`POST /__mock/worlds`). */
export interface CreateMockWorldOptions extends MockServerOptions {
  /** Your own id (letters, digits, `.`, `_`, `-`); default: the server picks `world-N`. */
  id?: string | undefined
  /** A scenario name the server knows, or a scenario object. */
  scenario?: string | ScenarioInput | undefined
  seed?: number | undefined
  /** A frozen ISO instant, or `'system'`. */
  clock?: string | undefined
}

/** The simulator clock of a world (`GET`/`POST /__mock/clock`). */
export interface ClockView {
  now: string
  fixed: boolean
}

/**
 * Creates an isolated world on a running simulator server and returns its
 * handle. Works wherever `fetch` does: Playwright, vitest, a script.
 *
 * @example
 * const world = await createMockWorld('http://127.0.0.1:4000', { scenario: 'empty', clock: '2026-01-01T00:00:00Z' })
 * await world.fetch('/admin/api/v1.2/users', { method: 'POST', body: JSON.stringify({ username: 'ada', email: 'ada@example.com', password: 'analytical' }) })
 * await world.delete()
 */
export async function createMockWorld(serverUrl: string, options: CreateMockWorldOptions = {}): Promise<MockWorld> {
  const { controlToken, fetch, ...create } = options
  const server = { serverUrl: normalizeServerUrl(serverUrl), controlToken, fetch: fetch ?? globalThis.fetch }
  const info = (await call(server, null, 'POST', '/worlds', create)) as WorldInfo
  return new MockWorld(info.id, server)
}

interface Server {
  serverUrl: string
  controlToken: string | undefined
  fetch: typeof globalThis.fetch
}

/**
 * One isolated world on a simulator server: its id, its clock, fault rules,
 * request journal and state, over the control API (`/__mock/...` with the
 * `x-mock-world` header). Every method throws `MockServerError` when the
 * server refuses, with its message.
 *
 * @example
 * await world.clock.advance('2h')
 * await world.faults.set([{ route: '/core/products/*', status: 503 }])
 * const failed = await world.journal.find({ area: 'admin', status: '4xx' })
 */
export class MockWorld {
  readonly worldId: string
  /** The server's base URL, without a trailing slash. */
  readonly serverUrl: string
  readonly clock: {
    now(): Promise<ClockView>
    /** Milliseconds or a duration such as `'90s'`, `'15m'`, `'2h'`. */
    advance(duration: number | string): Promise<ClockView>
    /** To an ISO 8601 instant. */
    set(instant: string): Promise<ClockView>
    /** Time stands still. */
    freeze(): Promise<ClockView>
    /** Time runs again, from where it stands. */
    resume(): Promise<ClockView>
  }
  readonly faults: {
    list(): Promise<FaultRuleView[]>
    /** Replaces every rule. */
    set(rules: FaultRuleInput[]): Promise<FaultRuleView[]>
    /** Adds one rule after the others. */
    add(rule: FaultRuleInput): Promise<FaultRuleView[]>
    clear(): Promise<void>
  }
  readonly journal: {
    /** Answered requests of this world, oldest first; filters as `GET /__mock/requests`. */
    find(query?: JournalQuery): Promise<JournalEntry[]>
    clear(): Promise<void>
  }
  readonly #server: Server

  /** Use `createMockWorld`; this attaches to a world that exists. */
  constructor(worldId: string, server: { serverUrl: string; controlToken?: string | undefined; fetch?: typeof globalThis.fetch | undefined }) {
    this.worldId = worldId
    this.serverUrl = normalizeServerUrl(server.serverUrl)
    this.#server = { serverUrl: this.serverUrl, controlToken: server.controlToken, fetch: server.fetch ?? globalThis.fetch }
    const control = (method: string, path: string, body?: unknown) => call(this.#server, worldId, method, path, body)
    const moveClock = async (body: object) => (await control('POST', '/clock', body)) as ClockView
    this.clock = {
      now: async () => (await control('GET', '/clock')) as ClockView,
      advance: (duration) => moveClock({ advance: duration }),
      set: (instant) => moveClock({ set: instant }),
      freeze: () => moveClock({ mode: 'fixed' }),
      resume: () => moveClock({ mode: 'system' }),
    }
    this.faults = {
      list: async () => ((await control('GET', '/faults')) as { rules: FaultRuleView[] }).rules,
      set: async (rules) => ((await control('PUT', '/faults', { rules })) as { rules: FaultRuleView[] }).rules,
      add: async (rule) => ((await control('POST', '/faults', rule)) as { rules: FaultRuleView[] }).rules,
      clear: async () => void (await control('DELETE', '/faults')),
    }
    this.journal = {
      find: async (query = {}) => ((await control('GET', `/requests${journalSearch(query)}`)) as { entries: JournalEntry[] }).entries,
      clear: async () => void (await control('DELETE', '/requests')),
    }
  }

  /** The whole world as JSON, without password hashes (`GET /__mock/state`). */
  async state(): Promise<WorldState> {
    return (await call(this.#server, this.worldId, 'GET', '/state')) as WorldState
  }

  /**
   * Everything that rebuilds this world anywhere (`GET /__mock/bundle`): its
   * options, its start, every command since (passwords sealed) and its journal
   * (secrets redacted). `multi-area-mock serve --replay` rebuilds it.
   *
   * @example
   * await writeFile('world.json', JSON.stringify(await world.bundle()))
   */
  async bundle(): Promise<WorldBundle> {
    return (await call(this.#server, this.worldId, 'GET', '/bundle')) as WorldBundle
  }

  /** Replaces the whole world (`PUT /__mock/state`); answers the records per collection. */
  async replaceState(state: unknown): Promise<Record<string, number>> {
    return ((await call(this.#server, this.worldId, 'PUT', '/state', state)) as { counts: Record<string, number> }).counts
  }

  /** Back to the state right after the world's scenario was loaded: data, clock, journal and fault rules. */
  async reset(): Promise<void> {
    await call(this.#server, this.worldId, 'POST', '/reset')
  }

  /** Empties the world and loads a scenario the server knows by name. */
  async loadScenario(name: string): Promise<void> {
    await call(this.#server, this.worldId, 'POST', `/scenarios/${encodeURIComponent(name)}`)
  }

  /** The world as `GET /__mock/worlds/{id}` shows it (real-time creation and expiry). */
  async info(): Promise<WorldInfo> {
    return (await call(this.#server, null, 'GET', `/worlds/${encodeURIComponent(this.worldId)}`)) as WorldInfo
  }

  /** An absolute URL on the simulator server: `world.url('/core/users')`. */
  url(path: string): string {
    return new URL(path.replace(/^\/+/, ''), `${this.serverUrl}/`).href
  }

  /**
   * A request into this world: a path on the simulator server (or an absolute
   * URL), with the `x-mock-world` header and, for a string body, JSON content type.
   *
   * @example
   * const response = await world.fetch('/core/users?limit=5')
   */
  fetch(path: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    headers.set(WORLD_HEADER, this.worldId)
    if (typeof init.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json')
    return this.#server.fetch(typeof path === 'string' && path.startsWith('/') ? this.url(path) : path, { ...init, headers })
  }

  /** Removes the world and everything in it; `false` when it was already gone. */
  async delete(): Promise<boolean> {
    try {
      await call(this.#server, null, 'DELETE', `/worlds/${encodeURIComponent(this.worldId)}`)
      return true
    } catch (error) {
      if (error instanceof MockServerError && error.status === 404) return false
      throw error
    }
  }
}

/** One control API call; the answer's JSON, or `undefined` for 204. */
async function call(server: Server, world: string | null, method: string, path: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (world !== null) headers[WORLD_HEADER] = world
  if (server.controlToken) headers.authorization = `Bearer ${server.controlToken}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  const url = `${server.serverUrl}${CONTROL_PREFIX_PATH}${path}`
  let response: Response
  try {
    response = await server.fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  } catch (error) {
    throw new MockServerError(`${method} ${url} failed: ${(error as Error).message}${causeOf(error)}. Is the simulator server running there?`, 0, undefined)
  }
  const text = await response.text()
  const parsed = text === '' ? undefined : safeJson(text)
  if (!response.ok) {
    const detail = parsed as { error?: string; message?: string } | undefined
    const reason = detail?.message ? `${detail.error ?? response.status}: ${detail.message}` : text.slice(0, 200) || response.statusText
    throw new MockServerError(
      `${method} ${CONTROL_PREFIX_PATH}${path}${world === null ? '' : ` (world "${world}")`} answered ${response.status}, ${reason}`,
      response.status,
      parsed,
    )
  }
  return parsed
}

function journalSearch(query: JournalQuery): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue
    params.set(key, value instanceof Date ? value.toISOString() : key === 'since' && typeof value === 'number' ? new Date(value).toISOString() : String(value))
  }
  const search = params.toString()
  return search === '' ? '' : `?${search}`
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Node's fetch hides the reason (ECONNREFUSED…) in `cause`. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause ? ` (${cause.code ?? cause.message})` : ''
}
