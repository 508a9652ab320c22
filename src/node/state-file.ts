import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { type FileHandle, lstat, open, readFile, readlink, realpath, rename, rm } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { ConfigError } from '../kernel/errors/config-error.js'
import type { Simulator } from '../simulator/create-simulator.js'
import { ScenarioError } from '../kernel/errors/scenario-error.js'
import { jsonStream } from '../kernel/http/json-stream.js'
import { STATE_DEPTH } from '../simulator/control-routes.js'

/** Saves come at most this often (ms): a change is on disk within about this long. */
export const STATE_SAVE_INTERVAL_MS = 500

// Created, never opened: O_EXCL fails on any existing path (a planted symlink
// included), O_NOFOLLOW is a second guard where the platform has it.
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0)
// Fresh random names tried before a save gives up: a clash is chance (or a planted file) each time.
const TEMPORARY_ATTEMPTS = 8

/**
 * Keeps a server's default world in a JSON file (`serve --state-file`): the
 * file is a state document, exactly what `PUT /__mock/state` accepts (with the
 * users' password hashes, so they can still log in). `load()` once at start:
 * a file that is missing is created, one that cannot be read or does not
 * validate is refused with a one-line `ConfigError` and left as it is. Then
 * `attach()` saves after every change of the world, at most every 500 ms,
 * each save written to a temporary file, flushed and renamed over the old
 * one, so a crash or `kill -9` leaves the previous save or the new one, never
 * a torn file. `close()` saves once more (a clean stop).
 *
 * The temporary file has a random name and is created new (`O_EXCL`,
 * `O_NOFOLLOW`, mode 0600), so a symlink planted in a shared folder is never
 * written through. A state file that is a symlink is resolved once, at the
 * first load or save, and its target is replaced: the link stays a link. A
 * link to a file that does not exist is refused with a `ConfigError`.
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
  readonly #intervalMs: number
  #detach: (() => void) | undefined
  #timer: ReturnType<typeof setTimeout> | undefined
  #saving: Promise<void> | undefined
  #dirty = false
  #lastSave = 0
  #warned = false
  #target: string | undefined

  constructor(sim: Simulator, path: string, options: { intervalMs?: number } = {}) {
    this.#sim = sim
    this.path = resolve(path)
    this.#intervalMs = options.intervalMs ?? STATE_SAVE_INTERVAL_MS
  }

  /** Loads the world from the file, or creates the file from the seeded world when there is none. */
  async load(): Promise<'loaded' | 'created'> {
    const target = await this.#resolveTarget()
    let text: string
    try {
      text = await readFile(target, 'utf8')
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'ENOENT') throw new ConfigError(`Cannot read the state file ${this.path} (${code ?? String(error)}); it was left as it is.`)
      await this.save()
      return 'created'
    }
    let state: unknown
    try {
      state = JSON.parse(text)
    } catch (error) {
      throw new ConfigError(`The state file ${this.path} is not JSON (${(error as Error).message.split('\n')[0]}); it was left as it is.`)
    }
    try {
      await this.#sim.importState(state)
    } catch (error) {
      if (error instanceof ScenarioError) throw new ConfigError(`${error.message.replace('state document', `state file ${this.path}`)}; it was left as it is.`)
      throw error
    }
    return 'loaded'
  }

  /** Saves after every change from now on, at most every 500 ms. */
  attach(): void {
    this.#detach ??= this.#sim.onChange(() => this.#schedule())
  }

  /** Stops following changes, waits for a save under way, then saves once more; a failure is one line on stderr. */
  async close(): Promise<void> {
    this.#detach?.()
    this.#detach = undefined
    clearTimeout(this.#timer)
    this.#timer = undefined
    await this.#saving
    await this.save().catch((error: unknown) => void process.stderr.write(`multi-area-mock: ${(error as Error).message}\n`))
  }

  /** Writes the world now: a new temporary file beside the real one (the link's target, for a symlink), flushed, then renamed over it. */
  async save(): Promise<void> {
    this.#dirty = false
    const target = await this.#resolveTarget()
    // Streamed, chunk by chunk: the same bytes as `JSON.stringify`, without a second
    // copy of a large world as one string (and one buffer) at every save.
    const reader = jsonStream(this.#sim.snapshot(), STATE_DEPTH).getReader()
    let temporary: string | undefined
    try {
      const { file, path } = await createTemporary(target)
      temporary = path
      try {
        for (let next = await reader.read(); !next.done; next = await reader.read()) await file.write(next.value)
        await file.write('\n')
        await file.sync()
      } finally {
        await file.close()
      }
      // rename() replaces the last component, never follows it: whatever sits at `target` now is swapped, not written into.
      await rename(temporary, target)
    } catch (error) {
      await reader.cancel().catch(() => undefined)
      // Only a file this save created is removed: an existing path is never touched.
      if (temporary !== undefined) await rm(temporary, { force: true }).catch(() => undefined)
      throw new ConfigError(`Cannot write the state file ${this.path} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`)
    }
  }

  /**
   * The file actually written: the path itself, or for a symlink its target,
   * resolved once (the link is the user's choice; a link swapped later is not followed).
   */
  async #resolveTarget(): Promise<string> {
    if (this.#target !== undefined) return this.#target
    let target = this.path
    try {
      target = await realpath(this.path)
    } catch (error) {
      // Missing: created at the path itself. Other errors (ELOOP, EACCES) are reported by the read or write that follows.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') await this.#refuseDanglingLink()
    }
    this.#target = target
    return target
  }

  // Writing through a link to nothing would create a file wherever it points (planted, or a typo): refused instead.
  async #refuseDanglingLink(): Promise<void> {
    const link = await lstat(this.path).catch(() => undefined)
    if (!link?.isSymbolicLink()) return
    const destination = resolve(dirname(this.path), await readlink(this.path))
    throw new ConfigError(`The state file ${this.path} is a symbolic link to ${destination}, which does not exist; it was left as it is.`)
  }

  /** A change: save at the next free slot, at most one save every `intervalMs`, one at a time. */
  #schedule(): void {
    this.#dirty = true
    if (this.#timer !== undefined || this.#saving !== undefined || this.#detach === undefined) return
    const wait = Math.max(0, this.#lastSave + this.#intervalMs - Date.now())
    this.#timer = setTimeout(() => this.#run(), wait)
  }

  #run(): void {
    this.#timer = undefined
    if (!this.#dirty) return
    this.#lastSave = Date.now()
    this.#saving = this.save()
      .catch((error: unknown) => {
        // Once: a full disk would otherwise print a line twice a second. The server keeps answering.
        if (!this.#warned) process.stderr.write(`multi-area-mock: ${(error as Error).message} The world is kept in memory; later changes are tried again.\n`)
        this.#warned = true
      })
      .finally(() => {
        this.#saving = undefined
        if (this.#dirty) this.#schedule()
      })
  }
}

/** Creates a new, empty, owner-only file with a random name beside `target`; an existing path is never opened. */
async function createTemporary(target: string): Promise<{ file: FileHandle; path: string }> {
  for (let attempt = 1; ; attempt++) {
    const path = join(dirname(target), `${basename(target)}.${randomBytes(8).toString('hex')}.tmp`)
    try {
      return { file: await open(path, CREATE_NEW, 0o600), path }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt === TEMPORARY_ATTEMPTS) throw error
    }
  }
}
