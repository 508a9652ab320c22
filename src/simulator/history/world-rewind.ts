import { ApiError } from '../../kernel/errors/api-error.js'
import type { Reply } from '../../kernel/http/reply.js'
import type { Command } from '../log/command.js'
import type { SimulatorOptions } from '../options.js'
import type { WorldState } from '../state/scenario-schema.js'
import type { WorldSnapshot } from '../state/state-lifecycle.js'
import type { WorldHistoryEntry } from './world-history.js'

/** A saved world every `every` commands; past `bytes` of them, every other one goes (and `every` doubles). */
export const REWIND_CHECKPOINTS = { every: 10, bytes: 64 * 1024 * 1024 }

/**
 * How a rewind shares the event loop: it applies commands for at most
 * `sliceMs`, then lets every other request in; one request rebuilds for at
 * most `requestMs`, then answers 503 with `Retry-After` (what it built stays
 * built: the next request goes on from there).
 */
export const REWIND_PACE = { sliceMs: 20, requestMs: 1000, retryAfterSeconds: 1 }

/**
 * What a rewind uses of a simulator (a world): the parts `SimulatorEngine`
 * has, named here so the control routes need not import the simulator class
 * (an import cycle through the control routes).
 */
export interface RewindWorld {
  readonly worldId: string | null
  readonly options: SimulatorOptions
  readonly ready: Promise<void>
  readonly family: {
    readonly log: {
      serial<T>(operation: () => Promise<T>): Promise<T>
      remotely<T>(operation: () => Promise<T>): Promise<T>
      replay(command: Command): Promise<Reply>
      readonly history: { of(world: string | null): WorldHistoryEntry | undefined } | undefined
    }
    readonly time: { during<T>(at: number, apply: () => Promise<T>): Promise<T> }
  }
  readonly lifecycle: { save(): WorldSnapshot; restore(saved: WorldSnapshot): Promise<void> }
  /** The isolated worlds of its family, and what they hold: a rewind's own count against the live ones' budget. */
  readonly worlds: { readonly records: number; readonly maxTotalRecords: number }
  readonly clock: { nowMs(): number }
  exportState(): WorldState
}

/** A world around one of its commands: as it stood before it, and just after. */
export interface Rewound {
  /** `GET /__mock/state` as it would have answered just before the command (no password hashes). */
  before: WorldState
  /** …and just after it. */
  after: WorldState
  /** The world's clock when the command arrived (ms). */
  clock: number
}

/**
 * One world's history, rebuilt on demand (issue 35): a scratch simulator made
 * with the world's options is brought to the world as it stood before any
 * of its kept commands by restoring the nearest saved world and applying the
 * commands after it, as a replay does. The live world is never touched. The
 * scratch stays where the last answer left it, so stepping forward costs one
 * command and stepping back at most `REWIND_CHECKPOINTS.every`. Answers run
 * one at a time. Valid for as long as `entry` is the world's history (a
 * history only grows, and is replaced when it starts again).
 *
 * @example
 * const rewind = new WorldRewind(world, world.family.log.history!.of(world.worldId)!)
 * const { before, after } = await rewind.around(12) // the world around its 12th command
 */
export class WorldRewind {
  readonly entry: WorldHistoryEntry
  readonly #world: RewindWorld
  #scratch: Promise<RewindWorld> | undefined
  /** Commands applied to the scratch world since `start` (-1: nothing restored yet). */
  #applied = -1
  #every = REWIND_CHECKPOINTS.every
  /** Saved worlds (JSON) by the commands applied before them; 0 is `start`. */
  readonly #saved = new Map<number, string>()
  #bytes = 0
  /** The scratch world's state as last exported, while it still stands there. */
  #last: { applied: number; state: WorldState } | undefined
  #turn: Promise<unknown> = Promise.resolve()

  constructor(world: RewindWorld, entry: WorldHistoryEntry) {
    this.#world = world
    this.entry = entry
    this.#saved.set(0, JSON.stringify(entry.start))
  }

  /** The world just before its command `number` (from 1) and just after it. */
  around(number: number): Promise<Rewound> {
    const run = this.#turn.then(() => this.#around(number))
    this.#turn = run.catch(() => undefined)
    return run
  }

  /** Saved worlds held now, and their size (what a long history costs in memory). */
  get checkpoints(): { count: number; bytes: number; every: number } {
    return { count: this.#saved.size, bytes: this.#bytes, every: this.#every }
  }

  async #around(number: number): Promise<Rewound> {
    const command = this.entry.commands[number - 1]
    if (command === undefined) throw new RangeError(`No command ${number}: the history holds ${this.entry.commands.length}.`)
    const pace = new Pace(REWIND_PACE)
    const scratch = await this.#scratchWorld()
    await this.#bring(scratch, number - 1, pace)
    const before = this.#last?.applied === number - 1 ? this.#last.state : scratch.exportState()
    // The world's clock as it read when the command arrived.
    const clock = await scratch.family.time.during(command.at, async () => scratch.clock.nowMs())
    await this.#applyNext(scratch)
    const after = scratch.exportState()
    this.#last = { applied: number, state: after }
    return { before, after, clock }
  }

  /** Brings the scratch world to the point where `count` commands were applied: forward from where it stands, or from the nearest saved world before. */
  async #bring(scratch: RewindWorld, count: number, pace: Pace): Promise<void> {
    let nearest = 0
    for (const at of this.#saved.keys()) if (at <= count && at > nearest) nearest = at
    if (this.#applied < nearest || this.#applied > count) {
      const saved = JSON.parse(this.#saved.get(nearest)!) as WorldSnapshot
      const { log } = scratch.family
      await log.serial(() => log.remotely(() => scratch.lifecycle.restore(saved)))
      this.#applied = nearest
      this.#last = undefined
    }
    while (this.#applied < count) {
      await pace.step(() => `The world before command ${count + 1} is still being rebuilt (${this.#applied} of ${count} commands applied); ask again shortly.`)
      await this.#applyNext(scratch)
      this.#withinBudget(scratch)
    }
  }

  /**
   * The isolated worlds a rebuild makes (commands that made worlds) count
   * with the live ones against `maxTotalRecords`: past it the rebuild is
   * dropped, freeing what it held, and the request is a 409.
   */
  #withinBudget(scratch: RewindWorld): void {
    const live = this.#world.worlds
    const rebuilt = scratch.worlds.records
    if (rebuilt === 0 || rebuilt + live.records <= live.maxTotalRecords) return
    this.#scratch = undefined
    this.#applied = -1
    this.#last = undefined
    throw new ApiError(
      409,
      'conflict',
      `Rebuilding this history would hold ${rebuilt} records of isolated worlds beside the ${live.records} the live worlds hold; all worlds together may hold ${live.maxTotalRecords} (--max-total-world-records). Delete worlds or raise the limit; nothing was changed.`,
      { extra: { limit: live.maxTotalRecords, records: rebuilt, inUse: live.records } },
    )
  }

  /** Applies the next command to the scratch world, as the live world applied it; saves the world where one is due. */
  async #applyNext(scratch: RewindWorld): Promise<void> {
    const command = this.entry.commands[this.#applied]!
    // Its world is the scratch simulator's default world. The scratch keeps a history of its own, never read: it is
    // not cleared, which would cost a save of the whole world at the next command.
    await scratch.family.log.replay({ ...command, world: null })
    this.#applied++
    this.#last = undefined
    if (this.#applied % this.#every === 0 && !this.#saved.has(this.#applied)) this.#save(this.#applied, JSON.stringify(scratch.lifecycle.save()))
  }

  #save(at: number, text: string): void {
    this.#saved.set(at, text)
    this.#bytes += text.length
    while (this.#bytes > REWIND_CHECKPOINTS.bytes && this.#saved.size > 1) {
      this.#every *= 2
      for (const [kept, saved] of this.#saved) {
        if (kept === 0 || kept % this.#every === 0) continue
        this.#saved.delete(kept)
        this.#bytes -= saved.length
      }
    }
  }

  /** A simulator of the world's own kind and options, made once: never a world of its family, so nothing it does reaches the live one. */
  #scratchWorld(): Promise<RewindWorld> {
    this.#scratch ??= (async () => {
      const { clock: _clock, onInternalError: _report, ...options } = this.#world.options
      const start = this.entry.start
      // Made like the world (its class: importing `createSimulator` here would be an import cycle), seeded with the
      // scenario it began with (what sections take from a scenario beyond its records), with a clock of its own:
      // restoring `start` then puts back the world's records, clock and fault rules, as a replica joining does.
      const Scratch = this.#world.constructor as new (options: SimulatorOptions) => RewindWorld
      const scenario = (start.chosen?.scenario as SimulatorOptions['scenario']) ?? options.scenario
      const scratch = new Scratch({ ...options, scenario, seed: start.state.seed ?? options.seed, clock: 'system' })
      await scratch.ready
      return scratch
    })()
    this.#scratch.catch(() => (this.#scratch = undefined))
    return this.#scratch
  }
}

/**
 * One request's share of a rewind: `step` lets the event loop in once a slice
 * has run `sliceMs`, and past `requestMs` refuses to go on (503, `Retry-After`).
 */
class Pace {
  readonly #limits: typeof REWIND_PACE
  readonly #started = performance.now()
  #slice = this.#started

  constructor(limits: typeof REWIND_PACE) {
    this.#limits = limits
  }

  async step(progress: () => string): Promise<void> {
    const now = performance.now()
    if (now - this.#slice < this.#limits.sliceMs) return
    if (now - this.#started >= this.#limits.requestMs) {
      const retryAfter = String(this.#limits.retryAfterSeconds)
      throw new ApiError(503, 'service_unavailable', progress(), { headers: { 'retry-after': retryAfter } })
    }
    // A macrotask, not a resolved promise: pending I/O (every other request) runs before the next slice.
    await new Promise((resolve) => setTimeout(resolve, 0))
    this.#slice = performance.now()
  }
}
