import { createHash } from 'node:crypto'
import { constants } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { checkDerivedPath, NOFOLLOW, openRegularFile, resolveUserPath } from '../files/file-safety.js'
import { cutWarning, notALog, parseLog } from './log-lines.js'

/** The id a log names when there is no snapshot yet. */
const NO_SNAPSHOT = 'none'

/** A snapshot and its log as read back from disk, and how the log must be left for them. */
export interface RecoveredLog {
  /** Absolute path of the snapshot as given, and where it and the log really are. */
  path: string
  snapshotTarget: string
  logTarget: string
  /** The snapshot's text (none before the first compaction) and its SHA-256 (`none` without one). */
  snapshot: Buffer | undefined
  id: string
  /** Whether there is a log file, and the length of its good part. */
  exists: boolean
  size: number
  /** The entries after the snapshot, in order. */
  entries: string[]
  /** `restart`: the log is rewritten from a header naming the snapshot, with `entries`; `cut`: its torn tail is truncated; `none`: it is right as it is. */
  repair: 'restart' | 'cut' | 'none'
}

/**
 * Reads the snapshot at `path` and the log beside it (`${path}.log`): a torn or
 * corrupt tail is found (and told once through `warn`), and the entries kept
 * are those after the snapshot on disk, from the log's header or from the mark
 * of a compaction that crashed before the log restarted. A log without a
 * header is someone else's file: refused with a one-line `ConfigError`.
 *
 * @example
 * const { snapshot, entries, repair } = await recoverLog('world.json', 'state file', console.warn)
 */
export async function recoverLog(path: string, label: string, warn: (message: string) => void): Promise<RecoveredLog> {
  const absolute = resolve(path)
  const snapshotTarget = await resolveUserPath(absolute, label)
  const logTarget = `${absolute}.log`
  await checkDerivedPath(logTarget, 'log')
  const snapshot = await readIfThere(snapshotTarget, `the ${label} ${absolute}`)
  const id = snapshot === undefined ? NO_SNAPSHOT : sha256(snapshot)
  const bytes = await readIfThere(logTarget, `the log ${logTarget}`)
  const parsed = parseLog(bytes ?? Buffer.alloc(0))
  // Not a log FileLog wrote (its header is written whole, by a rename): someone else's file, never rewritten.
  if (bytes !== undefined && bytes.length > 0 && parsed.follows === undefined) throw new ConfigError(notALog(logTarget))
  if (parsed.cut > 0) warn(cutWarning(`${absolute}.log`, parsed))
  // From the header, or from the last mark of a compaction whose snapshot is the one on disk (a crash before the log restarted).
  let from = parsed.follows === id ? 0 : undefined
  for (const mark of parsed.marks) if (mark.id === id) from = mark.at
  if (from === undefined && parsed.entries.length > 0) {
    warn(`The log ${absolute}.log follows another ${label} than ${absolute} (replaced by hand?); its ${parsed.entries.length} entries were dropped.`)
  }
  const entries = parsed.entries.slice(from ?? parsed.entries.length)
  // Left on disk as loaded: a cut tail truncated, a log that does not start at its header rewritten.
  const repair = bytes !== undefined && (from !== 0 || parsed.follows !== id) ? 'restart' : parsed.cut > 0 ? 'cut' : 'none'
  return { path: absolute, snapshotTarget, logTarget, snapshot, id, exists: bytes !== undefined, size: parsed.good, entries, repair }
}

/**
 * Truncates the log after its last good line, durably: later appends follow good data.
 *
 * @example
 * if (recovered.repair === 'cut') await cutLog(recovered.logTarget, recovered.size)
 */
export async function cutLog(target: string, size: number): Promise<void> {
  const file = await open(target, constants.O_WRONLY | NOFOLLOW)
  try {
    await file.truncate(size)
    await file.sync()
  } finally {
    await file.close()
  }
}

/**
 * What went wrong with a file, in a word or a line: `ENOSPC`, `EIO`...
 *
 * @example
 * throw new ConfigError(`Cannot write the log ${path} (${failureOf(error)}).`)
 */
export function failureOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String((error as Error).message ?? error).split('\n')[0]!
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** A file's bytes, or undefined when there is none; read without following a link (the path is resolved already), a regular file only. */
async function readIfThere(target: string, name: string): Promise<Buffer | undefined> {
  try {
    const file = await openRegularFile(target)
    try {
      return await readFile(file)
    } finally {
      await file.close()
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new ConfigError(`Cannot read ${name} (${failureOf(error)}); it was left as it is.`)
  }
}
