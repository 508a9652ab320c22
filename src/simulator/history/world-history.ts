import type { Command } from '../log/command.js'
import type { WorldSnapshot } from '../state/state-lifecycle.js'

/** How much of one world's history is kept before it is folded into a new start (the bundle bench's 10,000 commands fit twice). */
export const HISTORY_LIMITS = { commands: 20_000, bytes: 16 * 1024 * 1024 }

/** One world's kept history: the world as it stood when it began, and every command applied to it since, in order. */
export interface WorldHistoryEntry {
  /**
   * The world before the first command kept (with password hashes: a snapshot
   * restores them exactly). Its records are the world's frozen ones, shared, as
   * what `reset()` returns to is: keeping it copies nothing.
   */
  start: WorldSnapshot
  /** When it began (the family's source clock, ms). */
  startedAt: number
  commands: Command[]
  /** Commands folded into `start` so far (the first kept command's number is this plus one). */
  folded: number
}

/** What the history reads of the family: a world (the object that answers for it, so a world made again under an old id is a new one) and its state as it stands now, taken in the log's turn. */
export interface HistoryWorlds {
  member(world: string | null): object | undefined
  save(world: string | null): WorldSnapshot | undefined
}

/**
 * The history of every world of a family (issue 35): each world's state
 * before its first command, then every command applied to it, in the order
 * the family's log applied them, so the world can be rebuilt byte for byte
 * anywhere (a bundle, `serve --replay`) and looked at as it stood before any
 * of its commands (the inspector's time line). Kept in memory, bounded: past
 * `HISTORY_LIMITS` a world's history is folded into a new start.
 *
 * @example
 * const history = new WorldHistory({ member: (id) => registry.get(id ?? 'default'), save: (id) => registry.get(id ?? 'default')?.lifecycle.save() }, () => time.now())
 * history.before(command); const reply = await apply(command); history.after(command, reply.status)
 */
export class WorldHistory {
  readonly #family: HistoryWorlds
  readonly #now: () => number
  readonly #worlds = new Map<string | null, Kept>()

  constructor(family: HistoryWorlds, now: () => number) {
    this.#family = family
    this.#now = now
  }

  /** Before a command applies: its world's history begins now if it has none yet. */
  before(command: Command): void {
    if (!keeps(command) || this.#current(command.world) !== undefined) return
    this.#begin(command.world)
  }

  /**
   * After a command applied: it is kept (a world's history past its limits
   * starts again from the world as it is now), unless its route refused it
   * (`status` 4xx: nothing changed, so nothing to replay or rewind to).
   */
  after(command: Command, status: number): void {
    if (!keeps(command) || (status >= 400 && status < 500)) return
    const entry = this.#current(command.world)
    if (entry === undefined) return
    entry.commands.push(command)
    entry.bytes += (command.body?.length ?? 0) + command.url.length + 64
    if (entry.commands.length >= HISTORY_LIMITS.commands || entry.bytes >= HISTORY_LIMITS.bytes) {
      const folded = entry.folded + entry.commands.length
      this.#begin(command.world)
      this.#worlds.get(command.world)!.folded = folded
    }
  }

  /** A world's history, begun now if it has none (a world no command changed yet). `undefined` for a world that does not exist. */
  of(world: string | null): WorldHistoryEntry | undefined {
    return this.#current(world) ?? this.#begin(world)
  }

  /** Every world's history starts again from the worlds as they are (a snapshot restored, a replica joined). */
  clear(): void {
    this.#worlds.clear()
  }

  /** The world's history, when it is the history of the world that has its id now. */
  #current(world: string | null): Kept | undefined {
    const entry = this.#worlds.get(world)
    return entry !== undefined && entry.member === this.#family.member(world) ? entry : undefined
  }

  #begin(world: string | null): Kept | undefined {
    const member = this.#family.member(world)
    const saved = this.#family.save(world)
    if (member === undefined || saved === undefined) return undefined
    // Worlds deleted or expired since: their history goes with them (a suite makes thousands).
    for (const [id, entry] of this.#worlds) if (entry.member !== this.#family.member(id)) this.#worlds.delete(id)
    const entry: Kept = { member, start: saved, startedAt: this.#now(), commands: [], folded: 0, bytes: 0 }
    this.#worlds.set(world, entry)
    return entry
  }
}

/** A history as kept: whose it is, and its size. */
interface Kept extends WorldHistoryEntry {
  member: object
  bytes: number
}

/** Writes a request made: the commands that change a world's records (expiry and fault decisions are the family's, not a world's). */
function keeps(command: Command): boolean {
  return command.kind === undefined
}
