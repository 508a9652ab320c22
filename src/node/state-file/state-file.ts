import { resolve } from 'node:path'
import { ApiError } from '../../kernel/errors/api-error.js'
import type { Command } from '../../simulator/log/command.js'
import type { KeptCommands } from '../../simulator/log/command-store.js'
import type { Simulator } from '../../simulator/create-simulator.js'
import { engineOf } from '../../simulator/engine.js'
import { FileLog } from './file-log.js'
import { importStateText, isSettings, parseLogEntry, type SettingsEntry, stateText } from './state-file-content.js'

/** The log is folded into a new state file once it holds this many changes: a restart replays at most about this many. */
export const STATE_COMPACT_AFTER = 1_000
/**
 * The log grows to twice the state file before it is folded in: writing the
 * world costs each change half what growing to once its size did (issue 46,
 * `--state-file` writes 8 % faster, measured in pairs), and a start reads at
 * most about three times the world's size.
 */
export const STATE_COMPACT_GROWTH = 2
/** Seconds a client is told to wait (`Retry-After`) after a write the state file could not keep. */
const RETRY_AFTER_SECONDS = 1
/** Control calls that make or remove isolated worlds: replayed, they would bring back a world the file does not keep. */
const WORLD_OPERATIONS: ReadonlySet<string | undefined> = new Set(['createWorld', 'deleteWorld'])

export interface StateFileOptions {
  /** Changes in the log before it is folded into the state file (default `STATE_COMPACT_AFTER`). */
  compactAfter?: number
  /** How much bigger than the last state file the log must also grow first, as a share of it (default `STATE_COMPACT_GROWTH`; 0: no such rule). */
  compactGrowth?: number
  /** Receives each one-line warning: a cut log tail, a write that failed (default: stderr). */
  onWarning?: (message: string) => void
}

/**
 * Keeps a server's default world on disk (`serve --state-file`), so nothing
 * answered is lost (issue 33). The file is a state document, exactly what
 * `PUT /__mock/state` accepts (with the users' password hashes); beside it,
 * `<file>.log` holds the changes made since it was written, one command a line.
 *
 * `load()` once at start: the state document is imported (one that cannot be
 * read or does not validate is refused with a one-line `ConfigError` and left
 * as it is), then the log's commands are applied again in order; with neither,
 * the seeded world is written as the first state document. `attach()` then
 * keeps every change of the default world: its answer waits until the command
 * is flushed to the log. Past `compactAfter` changes the world is written as a
 * new state document (a point-in-time copy, written while writes go on) and the
 * log starts over. `close()` stops keeping and does that once more, so after a
 * clean stop the file is a complete state document and the log holds only
 * the world's settings a state document has no place for (clock, fault rules,
 * what a reset returns to).
 *
 * Files are created owner-only (0600) and never written through a planted
 * symlink; a state file that is a symlink stays one, followed only when this
 * user, root or its folder's owner made it, and a `<file>.log` the server did
 * not write is refused, never repaired (see `file-log.ts`, `file-safety.ts`).
 *
 * @example
 * const keeper = new StateFile(sim, 'world.json')
 * await keeper.load()   // 'loaded' or 'created'
 * keeper.attach()
 * await keeper.close()  // on stop
 */
export class StateFile {
  /** Absolute path of the file. */
  readonly path: string
  readonly #sim: Simulator
  readonly #compactAfter: number
  readonly #warn: (message: string) => void
  #log: FileLog | undefined
  #kept: KeptCommands | undefined
  #detach: (() => void) | undefined
  /** The compaction under way (one at a time), and whether the world changed outside the log since its copy was taken. */
  #compaction: Promise<void> | undefined
  #again = false
  /** The log's length at which the next compaction starts (later after one failed). */
  #compactAt: number
  /**
   * Bytes of changes appended since the last state file, and that file's size:
   * a state file is written again only once the log outgrows it, so a large
   * world is not serialized every 1,000 changes (the cost stays in proportion
   * to the writes, as Redis's AOF rewrite does).
   */
  #logBytes = 0
  #snapshotBytes = 0
  readonly #growth: number
  /** An append failed and none succeeded since: told once, and the world is written whole when appends work again. */
  #appendsFailing = false
  #compactionsFailing = false

  constructor(sim: Simulator, path: string, options: StateFileOptions = {}) {
    this.#sim = sim
    this.path = resolve(path)
    this.#compactAfter = options.compactAfter ?? STATE_COMPACT_AFTER
    this.#compactAt = this.#compactAfter
    this.#growth = options.compactGrowth ?? STATE_COMPACT_GROWTH
    this.#warn = options.onWarning ?? ((message) => void process.stderr.write(`multi-area-mock: ${message}\n`))
  }

  /** Loads the world from the file and its log, or creates the file from the seeded world when there is neither. */
  async load(): Promise<'loaded' | 'created'> {
    const { log, snapshot, entries } = await FileLog.open(this.path, { label: 'state file', onWarning: this.#warn })
    this.#log = log
    this.#snapshotBytes = snapshot?.length ?? 0
    this.#logBytes = entries.reduce((sum, entry) => sum + entry.length, 0)
    try {
      if (snapshot !== undefined) await importStateText(this.#sim, snapshot, this.path)
      const { family, lifecycle } = engineOf(this.#sim)
      for (const entry of entries) {
        const command = parseLogEntry(entry, this.path)
        // Only the settings: the records are the state file's and the changes replayed so far (a crash while a new
        // state file was written leaves the changes before it in the log, then its settings line, then the later ones).
        if (isSettings(command)) await lifecycle.restoreSettings(command.settings)
        else await family.log.replay(command)
      }
      if (snapshot !== undefined || entries.length > 0) return 'loaded'
      await this.save()
      return 'created'
    } catch (error) {
      this.#log = undefined
      await log.close()
      throw error
    }
  }

  /** Keeps every change of the default world from now on: a write is answered once its command is on disk. */
  attach(): void {
    if (this.#log === undefined) throw new Error('StateFile.attach() needs load() first.')
    if (this.#kept !== undefined) return
    this.#kept = { kind: 'kept', append: (command) => this.#keep(command) }
    engineOf(this.#sim).family.log.use(this.#kept)
    // Changes made from code (`sim.reset()`, `sim.importState()`) are no commands: the world is written whole after them.
    this.#detach = this.#sim.onChange((change) => {
      if (change.cause !== 'request') this.#compact(true)
    })
    if (this.#due(this.#log)) this.#compact(false)
  }

  /** Stops keeping changes, then writes the world as a complete state file and empties the log; a failure is one line on stderr (the log still holds every change). */
  async close(): Promise<void> {
    const log = this.#log
    if (log === undefined) return
    this.#detach?.()
    this.#detach = undefined
    // Commands submitted before keep this store until they are appended; later ones are not kept.
    if (this.#kept !== undefined) engineOf(this.#sim).family.log.use(undefined)
    this.#kept = undefined
    await this.#compaction
    try {
      await this.save()
    } catch (error) {
      this.#warn(`${(error as Error).message} Nothing is lost: the changes are in ${this.path}.log and load at the next start.`)
    }
    this.#log = undefined
    await log.close()
  }

  /**
   * Writes the world as it is now as the state file, then starts the log over
   * with the changes made meanwhile; the copy is taken in the command log's
   * turn, after every change answered before. Refused with a one-line `ConfigError`.
   */
  async save(): Promise<void> {
    const log = this.#log
    if (log === undefined) throw new Error('StateFile.save() needs load() first.')
    // Wrapped: the serial turn ends once the copy is taken and handed over; the writing goes on outside it.
    const engine = engineOf(this.#sim)
    const { written, settings } = await engine.family.log.serial(async () => {
      const { state: _state, ...rest } = engine.lifecycle.save()
      // The world's settings (clock, fault rules, what a reset returns to) are no state document's: the first entry after it.
      this.#logBytes = 0
      const written = log.compact(stateText(this.#sim.snapshot(), (bytes) => (this.#snapshotBytes = bytes)))
      return { written, settings: log.append(JSON.stringify({ kind: 'settings', settings: rest } satisfies SettingsEntry)) }
    })
    await Promise.all([written, settings])
  }

  /** The kept store's append: the default world's commands only (isolated worlds live in memory, and so does making one). */
  #keep(command: Command): Promise<void> {
    if (command.world !== null || this.#makesWorld(command)) return Promise.resolve()
    const log = this.#log!
    const entry = JSON.stringify(command)
    this.#logBytes += entry.length
    return log.append(entry).then(
      () => {
        if (this.#appendsFailing) {
          this.#appendsFailing = false
          // The world holds changes the log missed (answered 503): this one is answered once the world is on disk whole,
          // so a crash now cannot replay it onto a world without them.
          return this.save()
        }
        if (this.#due(log)) this.#compact(false)
      },
      (error: unknown) => {
        // Once per outage: a full disk would otherwise print a line per request.
        if (!this.#appendsFailing) this.#warn(`${(error as Error).message} Writes are answered 503 until it can be written again; the world is kept in memory.`)
        this.#appendsFailing = true
        throw new ApiError(503, 'store_unavailable', `The state file could not be written (${failureReason(error)}); the change is in memory but not on disk.`, {
          headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
        })
      },
    )
  }

  /** Time to fold the log into a new state file: past `compactAfter` changes, and grown `compactGrowth` times the last state file. */
  #due(log: FileLog): boolean {
    return log.length >= this.#compactAt && this.#logBytes >= this.#snapshotBytes * this.#growth
  }

  #makesWorld(command: Command): boolean {
    const dispatch = engineOf(this.#sim).dispatcher.dispatch(command)
    return dispatch?.kind === 'route' && WORLD_OPERATIONS.has(dispatch.route.operationId)
  }

  /**
   * Folds the log into a new state file, in the background, one at a time.
   * `changed`: the world changed in a way the log may not hold, so a
   * compaction under way (its copy taken before) is followed by another.
   */
  #compact(changed: boolean): void {
    if (this.#compaction !== undefined) {
      this.#again ||= changed
      return
    }
    this.#again = false
    this.#compaction = this.save().then(
      () => {
        this.#compactAt = this.#compactAfter
        this.#compactionsFailing = false
      },
      (error: unknown) => {
        // Tried again after as many changes more: a failing disk is not hit at every write.
        this.#compactAt = (this.#log?.length ?? 0) + this.#compactAfter
        if (!this.#compactionsFailing) this.#warn(`${(error as Error).message} Nothing is lost: the changes are in ${this.path}.log; writing the state file is tried again later.`)
        this.#compactionsFailing = true
      },
    )
    void this.#compaction.finally(() => {
      this.#compaction = undefined
      const log = this.#log
      if (this.#kept !== undefined && log !== undefined && (this.#again || this.#due(log))) this.#compact(this.#again)
    })
  }
}

/** What went wrong, as the log's one-line error names it: `EIO`, `ENOSPC`... */
function failureReason(error: unknown): string {
  return /\(([^()]+)\)\.$/.exec((error as Error).message)?.[1] ?? 'unknown error'
}
