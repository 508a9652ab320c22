import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { type FileHandle, lstat, open, readlink, realpath, rename, rm } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { ConfigError } from '../kernel/errors/config-error.js'

// Created, never opened: O_EXCL fails on any existing path (a planted symlink
// included), O_NOFOLLOW is a second guard where the platform has it.
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0)
// Fresh random names tried before a write gives up: a clash is chance (or a planted file) each time.
const TEMPORARY_ATTEMPTS = 8

/**
 * The file to write for `path`: the path itself, or for a symlink its target
 * (the link is the user's choice, and stays a link). A link to nothing is
 * refused with a `ConfigError` naming it as `label`: writing through it would
 * create a file wherever it points (planted, or a typo). Resolve once, at the
 * first read or write, and keep the answer: a link swapped later is not followed.
 *
 * @example
 * const target = await resolveTarget('world.json', 'state file')
 */
export async function resolveTarget(path: string, label: string): Promise<string> {
  try {
    return await realpath(path)
  } catch (error) {
    // Missing: created at the path itself. Other errors (ELOOP, EACCES) are reported by the read or write that follows.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return path
  }
  const link = await lstat(path).catch(() => undefined)
  if (!link?.isSymbolicLink()) return path
  const destination = resolve(dirname(path), await readlink(path))
  throw new ConfigError(`The ${label} ${path} is a symbolic link to ${destination}, which does not exist; it was left as it is.`)
}

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
 * Replaces `target` (a path from `resolveTarget`) with what `write` writes: a
 * new temporary file, flushed, then renamed over it, so a crash or `kill -9`
 * leaves the old file or the new one, never a torn one. On a failure nothing is
 * left behind and the error is thrown as it came (the caller words it).
 *
 * @example
 * await replaceFile(await resolveTarget(path, 'state file'), (file) => file.writeFile(text))
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
