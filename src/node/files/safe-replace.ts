import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { type FileHandle, open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

// Created, never opened: O_EXCL fails on any existing path (a planted symlink
// included), O_NOFOLLOW is a second guard where the platform has it. (Not from
// file-safety.ts: the Vitest helper loads this file alone, without its errors.)
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0)
// Fresh random names tried before a write gives up: a clash is chance (or a planted file) each time.
const TEMPORARY_ATTEMPTS = 8

/**
 * Creates a new, empty, owner-only (0600) file with a random name beside
 * `target`; an existing path (a symlink planted at a guessable name included)
 * is never opened.
 *
 * @example
 * const { file, path } = await createTemporary('/data/world.json')
 */
export async function createTemporary(target: string): Promise<{ file: FileHandle; path: string }> {
  for (let attempt = 1; ; attempt++) {
    const path = join(dirname(target), `${basename(target)}.${randomBytes(8).toString('hex')}.tmp`)
    try {
      return { file: await open(path, CREATE_NEW, 0o600), path }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt === TEMPORARY_ATTEMPTS) throw error
    }
  }
}

/**
 * Writes a new temporary file beside `target` with `write`, flushes it to disk
 * and closes it; returns its path, to be renamed over `target` (or removed).
 * On a failure the temporary file is removed and the error thrown as it came.
 *
 * @example
 * const temporary = await writeTemporary(target, (file) => file.writeFile(text))
 * await rename(temporary, target)
 */
export async function writeTemporary(target: string, write: (file: FileHandle) => Promise<void>): Promise<string> {
  const { file, path } = await createTemporary(target)
  try {
    try {
      await write(file)
      await file.sync()
    } finally {
      await file.close()
    }
  } catch (error) {
    // Only a file this call created is removed: an existing path is never touched.
    await rm(path, { force: true }).catch(() => undefined)
    throw error
  }
  return path
}

/**
 * Replaces `target` (a path from `resolveUserPath`, or one the server names) with what `write` writes: a
 * new temporary file, flushed, then renamed over it, so a crash or `kill -9`
 * leaves the old file or the new one, never a torn one. On a failure nothing is
 * left behind and the error is thrown as it came (the caller words it).
 *
 * @example
 * await replaceFile(await resolveUserPath(path, 'state file'), (file) => file.writeFile(text))
 */
export async function replaceFile(target: string, write: (file: FileHandle) => Promise<void>): Promise<void> {
  const temporary = await writeTemporary(target, write)
  try {
    // rename() replaces the last component, never follows it: whatever sits at `target` now is swapped, not written into.
    await rename(temporary, target)
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined)
    throw error
  }
}

/**
 * Flushes a folder's entries (a rename in it) to disk, so that after a power
 * loss a later write cannot be there without an earlier rename. Platforms
 * that cannot open or flush a folder (Windows) skip it.
 *
 * @example
 * await syncDirectory(dirname(target))
 */
export async function syncDirectory(path: string): Promise<void> {
  let folder: FileHandle
  try {
    folder = await open(path, constants.O_RDONLY)
  } catch (error) {
    if (process.platform === 'win32') return
    throw error
  }
  try {
    await folder.sync().catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EINVAL' && error.code !== 'EISDIR' && error.code !== 'EPERM') throw error
    })
  } finally {
    await folder.close()
  }
}
