import type { Reply } from '../../kernel/http/reply.js'
import type { Command } from './command.js'
import { storeUnavailable } from '../../kernel/errors/store-unavailable.js'
import type { WorldHistory } from '../history/world-history.js'
import { type CommandStore, compareIds, LOG_START, type SharedCommands, type StoreStatus } from './command-store.js'

/** The stores' contract, also imported from here by Node code written before it had its own file. */

/** Applies one command to its world; `own` is this process's prepared request for it, when it made it. */
export type ApplyCommand<Own> = (command: Command, own: Own | undefined) => Promise<Reply>

/**
 * The order in which a simulator family's worlds change. Every write is a
 * `Command` submitted here and applied strictly one after another, so the
 * order it is kept in is the order it was applied in:
 * - in memory (the default), nothing is kept;
 * - with a kept store (a file), each command is appended once applied, and its
 *   answer waits until the append is durable;
 * - with a shared store (Redis), a command is appended first, then applied in
 *   the store's order, after every entry other replicas put before it; a read
 *   first applies what other replicas appended (`catchUp`).
 *
 * @example
 * const log = new CommandLog((command, own) => apply(command, own))
 * const reply = await log.submit(command, prepared)
 */
export class CommandLog<Own> {
  readonly #apply: ApplyCommand<Own>
  #store: CommandStore | undefined
  #tail: Promise<unknown> = Promise.resolve()
  /** Shared store: the position of the last entry applied here. */
  #applied = LOG_START
  /** Shared store: this process's commands appended but not applied yet, by their `origin`. */
  readonly #mine = new Map<string, { own: Own | undefined; settle: (reply: Promise<Reply>) => void }>()
  #origin: string
  #sequence = 0
  #applyingRemote = false
  #onApplied: ((id: string, command: Command & { origin?: string }) => void) | undefined
  #history: WorldHistory | undefined

  constructor(apply: ApplyCommand<Own>) {
    this.#apply = apply
    this.#origin = newOrigin()
  }

  /** This process's name in the commands it puts in a shared store (how it tells its own entries apart). */
  get origin(): string {
    return this.#origin
  }

  /** Whether replicas share the worlds (a shared store): what only the log's order may decide (fault rules firing) is a command then. */
  get shared(): boolean {
    return this.#store?.kind === 'shared'
  }

  /** Whether commands are kept, in a store or a history: applied one after another, each at its instant. */
  get keeps(): boolean {
    return this.#store !== undefined || this.#history !== undefined
  }

  /**
   * Whether commands leave the process as they are submitted (a store): their
   * passwords must then be sealed before `submit`. A history in memory keeps
   * them as they came; a bundle seals them when it is taken.
   */
  get stores(): boolean {
    return this.#store !== undefined
  }

  /**
   * Keeps every world's history from now on (issue 35): each command applied,
   * whatever keeps it besides, in the one order they are applied in (in
   * memory too, commands are then applied one after another).
   */
  keepHistory(history: WorldHistory | undefined): void {
    this.#history = history
  }

  /** The worlds' history, when it is kept. */
  get history(): WorldHistory | undefined {
    return this.#history
  }

  /**
   * `true` while a command another replica made (or a replayed one) is applied:
   * what only the replica that accepted a command does once for everyone (say,
   * emptying the shared journal on a reset) is skipped then.
   */
  get applyingRemote(): boolean {
    return this.#applyingRemote
  }

  /** The shared store's state (`undefined` without one), with the position applied here. */
  storeStatus(): (StoreStatus & { applied: string }) | undefined {
    const store = this.#store
    return store?.kind === 'shared' && store.status ? { ...store.status(), applied: this.#applied } : undefined
  }

  /** The shared store's position applied so far (`LOG_START` before any). */
  get applied(): string {
    return this.#applied
  }

  /**
   * Keeps commands in `store` from now on (`undefined`: in memory only again).
   * A shared store's `applied`: the position the worlds already hold (a
   * snapshot's); `onApplied`: told of each of its entries once applied, in the
   * log's turn (a snapshot taken then is exactly the worlds at `id`).
   */
  use(store: CommandStore | undefined, options: { applied?: string; onApplied?: (id: string, command: Command & { origin?: string }) => void } = {}): void {
    this.#store = store
    this.#applied = options.applied ?? LOG_START
    this.#onApplied = options.onApplied
  }

  /** A shared store's worlds were restored from a snapshot at `id` (a replica that fell behind a trimmed log): entries after it come next. */
  rebase(id: string): void {
    this.#applied = id
  }

  /** Applies `command` in its turn and answers what applying it answered. */
  submit(command: Command, own: Own | undefined): Promise<Reply> {
    const store = this.#store
    // Nothing kept, nothing to order: applied at once, as before there was a log (worlds' writes do not wait for each other).
    if (store === undefined) return this.#history === undefined ? this.#apply(command, own) : this.serial(() => this.#applyKept(command, own))
    if (store.kind === 'kept') {
      const applied = this.serial(async () => {
        const reply = await this.#applyKept(command, own)
        return { reply, kept: store.append(command) }
      })
      return applied.then(({ reply, kept }) => kept.then(() => reply))
    }
    const origin = `${this.#origin}:${++this.#sequence}`
    const mine = { ...command, origin }
    return new Promise<Reply>((resolve, reject) => {
      this.#mine.set(origin, { own, settle: resolve })
      const appended = store.appendAfter ? store.appendAfter(JSON.stringify(mine), this.#applied) : store.append(JSON.stringify(mine)).then((id) => ({ id, entries: undefined }))
      appended.then(
        ({ id, entries }) =>
          this.serial(() => this.#applyUpTo(store, id, entries)).then(() => {
            // Applied through a snapshot that holds it (this replica was behind a trimmed log): its own answer is gone.
            if (this.#mine.delete(origin)) reject(storeUnavailable('this replica caught up from a snapshot that holds this change, so its answer is unknown'))
          }, reject),
        (error: unknown) => {
          this.#mine.delete(origin)
          reject(error)
        },
      )
    })
  }

  /** Applies a kept command in the log's turn, as a replica or a replay does (nothing is kept of it again). */
  replay(command: Command): Promise<Reply> {
    return this.serial(() => this.#remote(command))
  }

  /** Shared store: applies what other replicas appended since, before a read answers; `undefined` when nothing is shared. */
  catchUp(): Promise<void> | undefined {
    const store = this.#store
    if (store?.kind !== 'shared') return undefined
    return store.lastId().then((last) => (compareIds(last, this.#applied) > 0 ? this.serial(() => this.#applyUpTo(store, last)) : undefined))
  }

  /** Runs `operation` in the log's turn: after every command submitted before it, before any submitted after (a snapshot). */
  serial<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(operation)
    this.#tail = run.catch(() => undefined)
    return run
  }

  #remote(command: Command): Promise<Reply> {
    return this.remotely(() => this.#applyKept(command, undefined))
  }

  /** Applies a command in the log's turn, kept in the worlds' history when there is one. */
  async #applyKept(command: Command, own: Own | undefined): Promise<Reply> {
    const history = this.#history
    if (history === undefined) return this.#apply(command, own)
    history.before(command)
    const reply = await this.#apply(command, own)
    history.after(command, reply.status)
    return reply
  }

  /** Runs `operation` as other replicas' work (`applyingRemote`): restoring a snapshot, say, clears no shared journal. */
  async remotely<T>(operation: () => Promise<T>): Promise<T> {
    this.#applyingRemote = true
    try {
      return await operation()
    } finally {
      this.#applyingRemote = false
    }
  }

  /** Applies the log up to `target`; `first`: entries read already (with the append), from before `applied` to `target`. */
  async #applyUpTo(store: SharedCommands, target: string, first?: Array<{ id: string; entry: string }>): Promise<void> {
    let given = first?.filter(({ id }) => compareIds(id, this.#applied) > 0)
    while (compareIds(this.#applied, target) < 0) {
      const entries = given ?? (await store.readAfter(this.#applied))
      given = undefined
      if (entries.length === 0) return
      for (const { id, entry } of entries) {
        const command = await this.#applyEntry(store.decode(id, entry))
        this.#applied = id
        this.#onApplied?.(id, command)
      }
    }
  }

  async #applyEntry(command: (Command & { origin?: string }) | undefined): Promise<Command & { origin?: string }> {
    if (command === undefined) return { world: null, method: '', url: '', at: 0 }
    const mine = command.origin === undefined ? undefined : this.#mine.get(command.origin)
    if (mine === undefined) {
      await this.#remote(command)
      return command
    }
    this.#mine.delete(command.origin!)
    const reply = this.#applyKept(command, mine.own)
    mine.settle(reply)
    await reply
    return command
  }
}

/** A name no other replica has: 12 random hex digits (not world state: it never shapes a world). */
function newOrigin(): string {
  return crypto.randomUUID().replaceAll('-', '').slice(0, 12)
}
