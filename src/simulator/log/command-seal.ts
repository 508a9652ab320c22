import { ApiError } from '../../kernel/errors/api-error.js'
import { bodyText } from './command-body.js'
import type { Command } from './command.js'

/** The key whose string values the world hashes: what a command seals. */
const PASSWORD_KEY = 'password'

/** Most distinct passwords in clear one write may carry: each costs key derivations when it is sealed. A state holds hashes (`password_hash`) instead. */
export const MAX_COMMAND_PASSWORDS = 1000

/** Where a password the world hashes sits in a body: its holder and key. */
interface Slot {
  holder: Record<string, unknown>
  key: string
}

/**
 * The places a route reads a password the world hashes, and only those, at a
 * fixed depth (nothing here walks a body whatever its shape): an area's write
 * has it at the top (`POST /admin/api/v1.2/users`, a login); a control
 * document (a state, a world's scenario) has it per section and per listed
 * user (`admin.password`, `core.users[3].password`). A resource's data is
 * never one: it is kept as given.
 *
 * @example
 * passwordSlots({ password: 'x' }, false) // [{ holder: …, key: 'password' }]
 */
export function passwordSlots(body: unknown, document: boolean): Slot[] {
  const slots: Slot[] = []
  if (!isRecord(body)) return slots
  own(body, slots)
  if (!document) return slots
  for (const doc of [body, body.scenario]) {
    if (!isRecord(doc)) continue
    for (const section of Object.values(doc)) {
      if (!isRecord(section)) continue
      own(section, slots)
      if (Array.isArray(section.users)) for (const user of section.users) if (isRecord(user)) own(user, slots)
    }
  }
  return slots
}

/** The seeds a control document gives (a world's `seed`, its scenario's, a state's): the worlds its passwords may be hashed in. */
export function documentSeeds(body: unknown): number[] {
  if (!isRecord(body)) return []
  const seeds = [body.seed, isRecord(body.scenario) ? body.scenario.seed : undefined]
  return seeds.filter((seed): seed is number => typeof seed === 'number')
}

/**
 * Refuses a write whose body carries more distinct passwords in clear than
 * `MAX_COMMAND_PASSWORDS` (413), before it becomes a command: sealing them
 * would cost more than the route's own work.
 *
 * @example
 * refuseManyPasswords(input.body, true)
 */
export function refuseManyPasswords(body: unknown, document: boolean): void {
  const distinct = new Set(passwordSlots(body, document).map(({ holder, key }) => holder[key]))
  if (distinct.size <= MAX_COMMAND_PASSWORDS) return
  throw new ApiError(
    413,
    'payload_too_large',
    `The request body carries ${distinct.size} passwords in clear; a write may carry at most ${MAX_COMMAND_PASSWORDS}. Give the others as password_hash, as an in-process snapshot (sim.snapshot()) carries them, or leave them to the section password.`,
  )
}

/**
 * `command` with every password its route reads sealed (`passwordSlots`):
 * each distinct password is replaced by a token no client can guess, and
 * `sealed` maps the token to what `seal` made of it. A body with none is kept
 * as it is, byte for byte, and gets no `sealed`. `parsed`: the route's
 * validated input that `command.body` is the text of, when at hand (not read
 * again).
 *
 * @example
 * const kept = await sealCommand(command, false, (password) => world.passwords.seal(password, salts))
 */
export async function sealCommand(command: Command, document: boolean, seal: (password: string) => Promise<string>, parsed?: unknown): Promise<Command> {
  const text = command.body
  // A key may be spelled with escapes in a raw body (`"pass\u0077ord"`): any escape means reading it.
  if (text === undefined || !(text.includes(`"${PASSWORD_KEY}"`) || text.includes('\\u'))) return command
  let body: unknown
  if (!document && isRecord(parsed)) {
    // The route's validated input, whose text `command.body` is: an area write's password is at its top, so a shallow copy is enough.
    body = { ...parsed }
  } else {
    try {
      body = JSON.parse(text)
    } catch {
      return command
    }
  }
  const slots = passwordSlots(body, document)
  if (slots.length === 0) return command
  const tokens = new Map<string, string>()
  const sealed: Record<string, string> = {}
  for (const { holder, key } of slots) {
    const password = holder[key] as string
    let token = tokens.get(password)
    if (token === undefined) {
      token = `sealed:${crypto.randomUUID()}`
      tokens.set(password, token)
      sealed[token] = await seal(password)
    }
    holder[key] = token
  }
  return { ...command, body: bodyText(body), sealed }
}

function own(holder: Record<string, unknown>, slots: Slot[]): void {
  if (typeof holder[PASSWORD_KEY] === 'string') slots.push({ holder, key: PASSWORD_KEY })
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
