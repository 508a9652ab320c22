import type { SimRequest } from '../kernel/http/sim-request.js'
import type { Dispatch } from '../kernel/routing/dispatcher.js'

/**
 * One change of a world, as its log keeps it (issue 33): the write request as
 * its route accepted it, with the instant it was accepted. Applying the same
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
  /** The body text (JSON), passwords sealed; absent without a body. */
  body?: string
  /** The sealed passwords of the body, by the token that stands for each there (`sealCommand`); set whenever the body was changed so. */
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

/** The key whose string values the world hashes: what a command seals. */
const PASSWORD_KEY = 'password'

/** Other keys named like a password (`password_confirmation`, `old_passwd`): never kept, whatever a route does with them. */
const PASSWORD_LIKE = /pass(word|wd|phrase)/i

/**
 * `command` with every password in its body sealed, at any depth (a login, a
 * user creation, a scenario or state document's users): each is replaced by a
 * token no client can guess, and `sealed` maps the token to what `seal` made
 * of the password. Other keys named like a password are kept as
 * `[redacted]`. A body that names none is kept as it is, byte for byte;
 * `sealed` is set (perhaps empty) whenever the body was changed.
 *
 * @example
 * const kept = await sealCommand(command, (password) => world.passwords.seal(password))
 */
export async function sealCommand(command: Command, seal: (password: string) => Promise<string>): Promise<Command> {
  const text = command.body
  // A key may be spelled with escapes (`"pass\u0077ord"`): any escape means reading the body.
  if (text === undefined || !(PASSWORD_LIKE.test(text) || text.includes('\\u'))) return command
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return command
  }
  const found: Array<{ holder: Record<string, unknown>; key: string }> = []
  collectPasswords(body, found)
  if (found.length === 0) return command
  const sealed: Record<string, string> = {}
  for (const { holder, key } of found) {
    if (key !== PASSWORD_KEY) {
      holder[key] = '[redacted]'
      continue
    }
    const token = `sealed:${crypto.randomUUID()}`
    sealed[token] = await seal(holder[key] as string)
    holder[key] = token
  }
  return { ...command, body: JSON.stringify(body), sealed }
}

function collectPasswords(value: unknown, found: Array<{ holder: Record<string, unknown>; key: string }>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectPasswords(item, found)
    return
  }
  if (value === null || typeof value !== 'object') return
  const record = value as Record<string, unknown>
  for (const [key, item] of Object.entries(record)) {
    if (typeof item === 'string' && (key === PASSWORD_KEY || (PASSWORD_LIKE.test(key) && !/hash$/i.test(key)))) found.push({ holder: record, key })
    else collectPasswords(item, found)
  }
}

/** Every number a body gives as a `seed`, at any depth: the worlds its passwords may be hashed in (a world made, a state put). */
export function seedsIn(text: string | undefined): number[] {
  if (text === undefined || !text.includes('"seed"')) return []
  const seeds: number[] = []
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk)
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key === 'seed' && typeof item === 'number') seeds.push(item)
        else walk(item)
      }
    }
  }
  walk(JSON.parse(text))
  return seeds
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
