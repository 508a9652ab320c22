import type { SimRequest } from '../../kernel/http/sim-request.js'
import type { Dispatch } from '../../kernel/routing/dispatcher.js'

/**
 * One change of a world, as its log keeps it (issue 33): the write request as
 * its route accepted it (its validated input, never the raw body: issue 43),
 * with the instant it was accepted. Applying the same
 * commands in the same order to the same seeded world gives the same world,
 * byte for byte, on every replica and in every replay. Passwords in the body
 * are sealed (`sealed`), never kept in clear.
 *
 * @example
 * const command: Command = { world: null, method: 'POST', url: 'http://127.0.0.1:4000/core/users', body: '{"username":"ada",…}', at: 1767225600000 }
 */
export interface Command {
  /** The isolated world it changes; `null` for the default world. */
  world: string | null
  method: string
  /** The absolute URL it was sent to. */
  url: string
  /** The route's validated input as JSON text (`keptBody`), passwords sealed; absent when the route reads no body. */
  body?: string
  /** The sealed passwords of the body, by the token that stands for each there (`sealCommand`); set whenever the body holds one. */
  sealed?: Record<string, string>
  /** The source clock's reading when it was accepted (ms); applied with the clock pinned there. */
  at: number
  /** Which process made it, in a shared store (it applies its own with what it prepared); not read to apply. */
  origin?: string
  /**
   * A command no request made, deciding an isolated world's idle expiry once
   * for every replica: `touch` (a replica's requests used the world), `expire`
   * (remove it if idle as of `at`). `method` and `url` are empty then.
   * `fault`: the fault rules decide for a request to `method` `url`, counting
   * and drawing in the log's order, so replicas fire a rule as one process would.
   */
  kind?: 'touch' | 'expire' | 'fault'
}

/**
 * The request a kept command stands for, as a route reads it when the command
 * is applied: its method, URL and body (a JSON body, as it was accepted).
 *
 * @example
 * const request = commandRequest(command)
 */
export function commandRequest(command: Command): SimRequest {
  const headers = new Map<string, string>()
  if (command.body !== undefined) headers.set('content-type', 'application/json')
  return {
    method: command.method,
    url: command.url,
    headers: { get: (name) => headers.get(name.toLowerCase()) ?? null, entries: () => headers.entries() },
    bodyText: command.body,
    readText: () => Promise.resolve(command.body ?? ''),
  }
}

/** A dispatch that reached a route. */
export type RouteDispatch = Extract<Dispatch, { kind: 'route' }>

/**
 * `true` for a request that changes a world, so it becomes a command: every
 * method but GET, unless its route says it changes none (`command: false`).
 *
 * @example
 * if (isCommand(dispatch)) return writes.write(dispatch, request)
 */
export function isCommand(dispatch: Dispatch): dispatch is RouteDispatch {
  return dispatch.kind === 'route' && dispatch.route.method !== 'GET' && dispatch.route.command !== false
}
