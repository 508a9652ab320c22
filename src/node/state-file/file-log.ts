import { createHash } from 'node:crypto'
import { constants } from 'node:fs'
import { type FileHandle, open, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { NOFOLLOW } from '../files/file-safety.js'
import { entryLine, headerLine, markLine } from './log-lines.js'
import { cutLog, failureOf, type RecoveredLog, recoverLog } from './log-recovery.js'
import { replaceFile, syncDirectory, writeTemporary } from '../files/safe-replace.js'

// The log is a name the server makes: only ever opened at its own path, never through a link (see file-safety.ts).
const APPEND = constants.O_WRONLY | constants.O_APPEND | NOFOLLOW

/** What `FileLog.open` found: the snapshot's text (none before the first compaction) and the entries after it, in order. */
export interface FileLogLoad {
  log: FileLog
  snapshot: string | undefined
  entries: string[]
}

export interface FileLogOptions {
  /** Told once, in one line, when a torn or corrupt tail was cut or a log that follows another snapshot was dropped (default: stderr). */
  onWarning?: (message: string) => void
  /** How messages name the snapshot file (default `snapshot`), e.g. `state file`. */
  label?: string
  /** The fsync of each appended batch (default `datasync`): a seam for tests, to count or fail them. */
  sync?: (file: FileHandle) => Promise<void>
}

type Waiter = { line: string; resolve: () => void; reject: (error: Error) => void }

/**
 * A snapshot file plus a log of the entries (one line each, opaque) appended
 * after it, at `${path}.log`. An append is on disk when its promise resolves:
 * the appends of one event-loop turn share one write and one fsync. Each log
 * line carries a CRC-32, so a torn or flipped line is found and cut at the
 * next `open`; the log's first line names the SHA-256 of the snapshot it
 * follows, and `compact` marks in the old log which entries a new snapshot
 * covers before renaming it in, so a crash at any point neither replays an
 * entry twice nor loses one. Files are created owner-only (0600) and never
 * written through a planted symlink. The snapshot's path is the user's (see
 * `file-safety.ts`); the log's is the server's own: a link or another user's
 * file there, or a file without a log header, is refused, never "repaired".
 *
 * @example
 * const { log, snapshot, entries } = await FileLog.open('world.json', { onWarning: console.warn })
 * await log.append(JSON.stringify(command))
 * if (log.length > 10_000) await log.compact(`${JSON.stringify(world)}\n`)
 * await log.close()
 */
export class FileLog {
  readonly #path: string
  readonly #logPath: string
  readonly #snapshotTarget: string
  readonly #logTarget: string
  readonly #label: string
  readonly #sync: (file: FileHandle) => Promise<void>
  #snapshotId: string
  #exists: boolean
  #file: FileHandle | undefined
  #size: number
  #torn = false
  // Entry lines are counted in the order written: all written, the first in the file, the first after the snapshot.
  #written: number
  #firstSeq = 0
  #snapshotSeq = 0
  // While compactions are under way: the entry lines written since the earliest one's boundary, to carry into the new log.
  #tail: string[] | undefined
  #tailFrom = 0
  #compactions = 0
  #batch: Waiter[] | undefined
  #chain: Promise<unknown> = Promise.resolve()
  #compacting: Promise<unknown> = Promise.resolve()
  #closed = false

  private constructor(found: RecoveredLog, options: FileLogOptions) {
    this.#path = found.path
    this.#logPath = `${found.path}.log`
    this.#snapshotTarget = found.snapshotTarget
    this.#logTarget = found.logTarget
    this.#label = options.label ?? 'snapshot'
    this.#sync = options.sync ?? ((file) => file.datasync())
    this.#snapshotId = found.id
    this.#exists = found.exists
    this.#size = found.size
    this.#written = found.entries.length
  }

  /** Opens (creating nothing until the first write) the snapshot at `path` and the log beside it; a torn or corrupt tail is cut and reported once through `onWarning`. */
  static async open(path: string, options: FileLogOptions = {}): Promise<FileLogLoad> {
    const warn = options.onWarning ?? ((message: string) => void process.stderr.write(`multi-area-mock: ${message}\n`))
    const found = await recoverLog(path, options.label ?? 'snapshot', warn)
    const { snapshot, entries, repair } = found
    const log = new FileLog(found, options)
    try {
      if (repair === 'restart') await log.#restart(entries.map((entry) => entryLine(entry)))
      else if (repair === 'cut') await cutLog(found.logTarget, found.size)
    } catch (error) {
      if (error instanceof ConfigError) throw error
      throw new ConfigError(`Cannot repair the log ${found.path}.log (${failureOf(error)}); it was left as it is.`)
    }
    return { log, snapshot: snapshot?.toString('utf8'), entries }
  }

  /** Entries in the log since the last snapshot (for deciding when to compact). */
  get length(): number {
    return this.#written - this.#snapshotSeq
  }

  /** Appends one entry (a single line), on disk when this resolves; a failed write rejects with a one-line `ConfigError`, and later appends are tried again. */
  append(entry: string): Promise<void> {
    if (this.#closed) return Promise.reject(new Error(`The log ${this.#logPath} is closed.`))
    if (/[\r\n]/.test(entry)) return Promise.reject(new TypeError('A log entry must be a single line.'))
    if (this.#batch === undefined) {
      const batch: Waiter[] = (this.#batch = [])
      void this.#exclusive(() => this.#flush(batch))
    }
    const batch = this.#batch
    return new Promise((resolve, reject) => batch.push({ line: entryLine(entry), resolve, reject }))
  }

  /**
   * Writes `snapshot` (exactly these bytes: end it with a newline as a state
   * file does) as the new snapshot, which covers every entry appended before
   * this call, then restarts the log with the entries appended since.
   */
  compact(snapshot: string | AsyncIterable<string | Uint8Array>): Promise<void> {
    if (this.#closed) return Promise.reject(new Error(`The log ${this.#logPath} is closed.`))
    // Appends from here on are after the boundary: a new batch, queued after it.
    this.#batch = undefined
    this.#compactions++
    const boundary = this.#exclusive(() => {
      if (this.#tail === undefined) [this.#tail, this.#tailFrom] = [[], this.#written]
      return this.#written
    })
    const done = this.#compacting.then(async () => this.#compact(await boundary, snapshot))
    this.#compacting = done.catch(() => undefined)
    return done
  }

  /** Waits for pending writes and compactions, then closes the file. */
  async close(): Promise<void> {
    this.#closed = true
    await this.#compacting
    await this.#chain
    const file = this.#file
    this.#file = undefined
    await file?.close()
  }

  async #compact(boundary: number, snapshot: string | AsyncIterable<string | Uint8Array>): Promise<void> {
    let temporary: string | undefined
    let stage = `write the ${this.#label} ${this.#path}`
    try {
      const hash = createHash('sha256')
      temporary = await writeTemporary(this.#snapshotTarget, async (file) => {
        for await (const chunk of typeof snapshot === 'string' ? [snapshot] : snapshot) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
          hash.update(bytes)
          await file.writeFile(bytes) // from the current position on, every byte (a bare write may be short)
        }
      })
      const id = hash.digest('hex')
      stage = `write the log ${this.#logPath}`
      // Durable before the rename: after a crash, the old log says which of its entries the new snapshot holds.
      await this.#exclusive(() => (this.#exists ? this.#write([markLine(id, boundary - this.#firstSeq)], false) : undefined))
      await this.#exclusive(async () => {
        stage = `write the ${this.#label} ${this.#path}`
        await rename(temporary!, this.#snapshotTarget)
        temporary = undefined
        this.#snapshotId = id
        this.#snapshotSeq = boundary
        stage = `start a new log ${this.#logPath} after writing the ${this.#label} (the old log still loads right)`
        // In order on disk: a new log naming this snapshot is never there without the rename.
        await syncDirectory(dirname(this.#snapshotTarget))
        const carried = this.#tail!.slice(boundary - this.#tailFrom)
        await this.#restart(carried)
        ;[this.#tail, this.#tailFrom] = [carried, boundary]
      })
    } catch (error) {
      if (temporary !== undefined) await rm(temporary, { force: true }).catch(() => undefined)
      if (error instanceof ConfigError) throw error
      throw new ConfigError(`Cannot ${stage} (${failureOf(error)}).`)
    } finally {
      if (--this.#compactions === 0) this.#tail = undefined
    }
  }

  /** Runs `step` after every step queued before it, one at a time: writes keep the order of the calls. */
  #exclusive<T>(step: () => Promise<T> | T): Promise<T> {
    const result = this.#chain.then(step)
    this.#chain = result.catch(() => undefined)
    return result
  }

  /** One turn later (so every append of this turn joins), writes the batch in one write and one fsync. */
  async #flush(batch: Waiter[]): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve))
    if (this.#batch === batch) this.#batch = undefined
    const lines = batch.map((waiter) => waiter.line)
    try {
      await this.#write(lines, true)
    } catch (error) {
      const refusal = new ConfigError(`Cannot write the log ${this.#logPath} (${failureOf(error)}).`)
      for (const waiter of batch) waiter.reject(refusal)
      return
    }
    for (const waiter of batch) waiter.resolve()
  }

  async #write(lines: string[], entries: boolean): Promise<void> {
    if (!this.#exists) await this.#restart([])
    this.#file ??= await open(this.#logTarget, APPEND)
    // A failed write may have left part of a line: cut back to the good end first, or it would hide every later line.
    if (this.#torn) await this.#file.truncate(this.#size)
    this.#torn = false
    const data = Buffer.from(lines.join(''))
    try {
      await this.#file.appendFile(data)
      await this.#sync(this.#file)
    } catch (error) {
      this.#torn = true
      throw error
    }
    this.#size += data.length
    if (!entries) return
    this.#written += lines.length
    this.#tail?.push(...lines)
  }

  /** Replaces the log with a new one (a header naming the current snapshot, then `lines`, the last entries written), written safely. */
  async #restart(lines: string[]): Promise<void> {
    const data = Buffer.from(headerLine(this.#snapshotId) + lines.join(''))
    await replaceFile(this.#logTarget, (file) => file.writeFile(data))
    // Renamed in: the old handle now writes to a file no one will read.
    const old = this.#file
    this.#file = undefined
    await old?.close().catch(() => undefined)
    this.#exists = true
    this.#size = data.length
    this.#torn = false
    this.#firstSeq = this.#written - lines.length
    await syncDirectory(dirname(this.#logTarget))
  }
}
