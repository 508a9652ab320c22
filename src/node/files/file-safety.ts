import { constants, type Stats } from 'node:fs'
import { type FileHandle, lstat, open, readlink, stat } from 'node:fs/promises'
import { dirname, join, parse, resolve, sep } from 'node:path'
import { ConfigError } from '../../kernel/errors/config-error.js'

/**
 * The one rule for the paths the server reads and writes (issue 43):
 * - a name the server makes itself (`<state file>.log`, temporary files) is
 *   never followed as a link: opened with `O_NOFOLLOW`, and a link, a
 *   non-regular file or another user's file found there at start is refused;
 * - a path the user named (`--state-file`, `--record`, `--out`, `--replay`,
 *   a HAR file) is followed through a link only when this user, root or the
 *   owner of the link's folder made the link: Linux's `protected_symlinks`
 *   rule, which only guards world-writable sticky folders such as /tmp,
 *   applied to every folder (a group-writable one is shared too), whoever
 *   the server runs as (Linux exempts no follower, root included);
 * - a file read as input must be a regular file: a device (`/dev/zero`) or a
 *   named pipe is refused without reading it or waiting for a writer.
 */

/** `O_NOFOLLOW` where the platform has it: a link at the last component fails the open (`ELOOP`). */
export const NOFOLLOW = constants.O_NOFOLLOW ?? 0
// Opening a named pipe to read waits for a writer unless non-blocking; a regular file ignores the flag.
const READ_INPUT = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | NOFOLLOW
// Links followed before giving up, as Linux's ELOOP (the open that follows reports it).
const MAX_LINKS = 40
// A world-writable sticky folder (/tmp): anyone may add a name, only its owner remove it.
const SHARED_FOLDER = 0o1002

/** Where a walk along a path's links ended; `refusal`: why a link on the way is not followed, a phrase after the path ("is a symbolic link made by…"). */
type Walk = { target: string; missing: boolean; refusal?: string }

/**
 * The file to write or read for a path the user named: every link on the way
 * followed (the link stays a link), once it is checked as the rule above says;
 * a path that does not exist yet names the place it will be created. Refused
 * with a one-line `ConfigError` naming it as `label`: a link another user made
 * (anywhere on the way), and a link to nothing (writing through it would
 * create a file wherever it points: planted, or a typo). Resolve once, at
 * start, and open the answer with `NOFOLLOW`: a link put there later is not
 * followed.
 *
 * @example
 * const target = await resolveUserPath('world.json', 'state file')
 */
export async function resolveUserPath(path: string, label: string): Promise<string> {
  const absolute = resolve(path)
  const walk = await followLinks(absolute)
  if (walk.refusal !== undefined) throw new ConfigError(`The ${label} ${absolute} ${walk.refusal}; give the path of the file itself; it was left as it is.`)
  if (walk.missing) {
    const link = await lstat(absolute).catch(() => undefined)
    if (link?.isSymbolicLink()) {
      const destination = resolve(dirname(absolute), await readlink(absolute))
      throw new ConfigError(`The ${label} ${absolute} is a symbolic link to ${destination}, which does not exist; it was left as it is.`)
    }
  }
  // No link on the way: the path as the user gave it, as every message names it.
  return walk.target === absolute ? path : walk.target
}

/**
 * Checks a name the server makes itself (`<state file>.log`) before it is
 * read or written: nothing there, or a regular file of this user. A link (to
 * anything), a folder, a device or pipe, or another user's file is refused with
 * a one-line `ConfigError` and left as it is. Returns whether a file is there.
 *
 * @example
 * const exists = await checkDerivedPath('/data/world.json.log', 'log')
 */
export async function checkDerivedPath(path: string, label: string): Promise<boolean> {
  let info: Stats
  try {
    info = await lstat(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw new ConfigError(`Cannot read the ${label} ${path} (${readProblem(error)}); it was left as it is.`)
  }
  if (info.isSymbolicLink()) {
    throw new ConfigError(
      `The ${label} ${path} is a symbolic link; the server never follows a link at a name it makes itself: remove it, and the server creates the file; it was left as it is.`,
    )
  }
  if (!info.isFile()) throw new ConfigError(`The ${label} ${path} is ${kindOf(info)}, not a regular file; it was left as it is.`)
  const me = process.getuid?.()
  if (me !== undefined && info.uid !== me) {
    throw new ConfigError(`The ${label} ${path} belongs to another user (uid ${info.uid}); the server only writes files of its own user there; it was left as it is.`)
  }
  return true
}

/**
 * Opens a file to read that must be a regular file, at a path already
 * resolved (`resolveUserPath`) or one the server makes: never through a link
 * at its last component, never waiting on a named pipe. A link, a directory, a
 * device, a pipe or a socket is refused with a `NotRegularFile`; other
 * failures are thrown as they came (`ENOENT`, `EACCES`).
 *
 * @example
 * const file = await openRegularFile(await resolveUserPath('world.json', 'state file'))
 */
export async function openRegularFile(target: string): Promise<FileHandle> {
  const file = await open(target, READ_INPUT)
  let info: Stats
  try {
    info = await file.stat()
  } catch (error) {
    await file.close()
    throw error
  }
  if (info.isFile()) return file
  await file.close()
  throw new NotRegularFile(info)
}

/**
 * Opens an input file the user named (`--replay`, a HAR file) to read: links
 * followed as `resolveUserPath` allows, then `openRegularFile`. Every refusal
 * is a one-line `ConfigError`, `Cannot read <label> <path>: <why>.`
 *
 * @example
 * const file = await openInputFile('mock-world.json', 'bundle file')
 */
export async function openInputFile(path: string, label: string): Promise<FileHandle> {
  const absolute = resolve(path)
  const walk = await followLinks(absolute)
  if (walk.refusal !== undefined) throw new ConfigError(`Cannot read ${label} ${absolute}: it ${walk.refusal}.`)
  try {
    return await openRegularFile(walk.target)
  } catch (error) {
    throw new ConfigError(`Cannot read ${label} ${absolute}: ${readProblem(error)}.`)
  }
}

/** A file that is not a regular one (a directory, a device, a pipe): what `openRegularFile` refuses. */
export class NotRegularFile extends Error {
  /** `EISDIR` for a directory, as the system says it; otherwise none. */
  readonly code: string | undefined

  constructor(info: Stats) {
    super(`it is ${kindOf(info)}, not a regular file`)
    this.name = 'NotRegularFile'
    this.code = info.isDirectory() ? 'EISDIR' : undefined
  }
}

/**
 * Why a file could not be read, in words: `no such file`, `it is a directory`,
 * `it is a device, not a regular file`, `permission denied`, else the code.
 *
 * @example
 * readProblem(Object.assign(new Error(), { code: 'ENOENT' })) // 'no such file'
 */
export function readProblem(error: unknown): string {
  if (error instanceof NotRegularFile) return error.code === 'EISDIR' ? 'it is a directory' : error.message
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return 'no such file'
  if (code === 'EISDIR') return 'it is a directory'
  if (code === 'EACCES') return 'permission denied'
  if (code === 'ELOOP') return 'too many symbolic links'
  return String(code ?? (error as Error).message ?? error).split('\n')[0]!
}

/**
 * Walks `absolute` one component at a time, following each link once its
 * owner is checked, to the real path it names; stops at the first component
 * that does not exist (`missing`: the rest is where it would be created) or
 * that cannot be read (the open that follows reports it).
 */
async function followLinks(absolute: string): Promise<Walk> {
  let done = parse(absolute).root
  let rest = components(absolute)
  for (let links = 0; rest.length > 0; ) {
    const name = rest.shift()!
    const next = join(done, name)
    let info: Stats
    try {
      info = await lstat(next)
    } catch (error) {
      return { target: join(next, ...rest), missing: (error as NodeJS.ErrnoException).code === 'ENOENT' }
    }
    if (!info.isSymbolicLink()) {
      done = next
      continue
    }
    if (++links > MAX_LINKS) return { target: join(next, ...rest), missing: false }
    const refusal = untrusted(info, await stat(done), next === absolute ? undefined : next)
    if (refusal !== undefined) return { target: next, missing: false, refusal }
    const destination = resolve(done, await readlink(next))
    done = parse(destination).root
    rest = [...components(destination), ...rest]
  }
  return { target: done, missing: false }
}

/** Why a link may not be followed (`through`: the link, when it is a folder on the way), or undefined when it may. */
function untrusted(link: Stats, folder: Stats, through: string | undefined): string | undefined {
  const me = process.getuid?.()
  // No owners to compare (Windows); root's links and the folder owner's are as trusted as the folder itself.
  if (me === undefined || link.uid === me || link.uid === 0 || link.uid === folder.uid) return undefined
  const what = through === undefined ? 'is a symbolic link' : `goes through ${through}, a symbolic link`
  const made = `${what} made by another user (uid ${link.uid})`
  if ((folder.mode & SHARED_FOLDER) === SHARED_FOLDER) return `${made}, in a folder anyone can write to; it is not followed (as Linux's protected_symlinks)`
  return `${made}, not by this user or the folder's owner; it is not followed`
}

function components(absolute: string): string[] {
  return absolute
    .slice(parse(absolute).root.length)
    .split(sep)
    .filter((part) => part !== '' && part !== '.')
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory'
  if (info.isFIFO()) return 'a named pipe'
  if (info.isSocket()) return 'a socket'
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device'
  if (info.isSymbolicLink()) return 'a symbolic link'
  return 'not a file'
}
