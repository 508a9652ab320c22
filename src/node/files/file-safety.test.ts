import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, lchownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkDerivedPath, NotRegularFile, openInputFile, openRegularFile, readProblem, resolveUserPath } from './file-safety.js'

// "Another user": uid 65534 (nobody), given with lchown, which needs root (CI containers run tests as root).
const NOBODY = 65534
const asRoot = process.getuid?.() === 0
const dir = mkdtempSync(join(tmpdir(), 'mam-file-safety-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const folder = (name: string) => mkdtempSync(join(dir, `${name}-`))

/** A real file, and a link to it at `link` owned by `uid`. */
function linked(where: string, uid?: number): { file: string; link: string } {
  const file = join(folder('target'), 'real.json')
  writeFileSync(file, '{}\n')
  const link = join(where, 'world.json')
  symlinkSync(file, link)
  if (uid !== undefined) lchownSync(link, uid, uid)
  return { file, link }
}

describe('resolveUserPath: a path the user named', () => {
  it('names a file that does not exist yet as itself, and follows a link of its own user', async () => {
    const where = folder('own')
    expect(await resolveUserPath(join(where, 'not-yet.json'), 'state file')).toBe(join(where, 'not-yet.json'))
    const { file, link } = linked(where)
    expect(await resolveUserPath(link, 'state file')).toBe(file)
  })

  it('follows its own link in a world-writable sticky folder, as Linux does', async () => {
    const shared = folder('sticky-own')
    chmodSync(shared, 0o1777)
    const { file, link } = linked(shared)
    expect(await resolveUserPath(link, 'state file')).toBe(file)
  })

  it('refuses a link to nothing, naming where it points', async () => {
    const where = folder('dangling')
    symlinkSync('gone.json', join(where, 'world.json'))
    await expect(resolveUserPath(join(where, 'world.json'), 'state file')).rejects.toThrow(
      `The state file ${join(where, 'world.json')} is a symbolic link to ${join(where, 'gone.json')}, which does not exist; it was left as it is.`,
    )
  })

  it.skipIf(!asRoot)('refuses a link another user made in a world-writable sticky folder (protected_symlinks), even to root', async () => {
    const shared = folder('sticky')
    chmodSync(shared, 0o1777)
    const { link } = linked(shared, NOBODY)
    await expect(resolveUserPath(link, 'state file')).rejects.toMatchObject({
      name: 'ConfigError',
      message: `The state file ${link} is a symbolic link made by another user (uid ${NOBODY}), in a folder anyone can write to; it is not followed (as Linux's protected_symlinks); give the path of the file itself; it was left as it is.`,
    })
  })

  it.skipIf(!asRoot)('refuses a link another user made in any folder, and on the way to the file too', async () => {
    const where = folder('others')
    const { link } = linked(where, NOBODY)
    await expect(resolveUserPath(link, 'recording file')).rejects.toThrow(
      `The recording file ${link} is a symbolic link made by another user (uid ${NOBODY}), not by this user or the folder's owner; it is not followed; give the path of the file itself; it was left as it is.`,
    )
    const through = join(where, 'data')
    symlinkSync(folder('data'), through)
    lchownSync(through, NOBODY, NOBODY)
    await expect(resolveUserPath(join(through, 'world.json'), 'state file')).rejects.toThrow(
      `The state file ${join(through, 'world.json')} goes through ${through}, a symbolic link made by another user (uid ${NOBODY}), not by this user or the folder's owner; it is not followed;`,
    )
  })

  it.skipIf(!asRoot)("follows a link the folder's owner made (their folder, their choice)", async () => {
    const theirs = folder('theirs')
    chownSync(theirs, NOBODY, NOBODY)
    chmodSync(theirs, 0o1777)
    const { file, link } = linked(theirs, NOBODY)
    expect(await resolveUserPath(link, 'state file')).toBe(file)
  })
})

describe('checkDerivedPath: a name the server makes', () => {
  it('finds nothing, or a regular file of its own user', async () => {
    const where = folder('derived')
    expect(await checkDerivedPath(join(where, 'world.json.log'), 'log')).toBe(false)
    writeFileSync(join(where, 'world.json.log'), '')
    expect(await checkDerivedPath(join(where, 'world.json.log'), 'log')).toBe(true)
  })

  it('refuses a link to anything, even its own, a folder and a pipe', async () => {
    const where = folder('derived-bad')
    const { link } = linked(where)
    await expect(checkDerivedPath(link, 'log')).rejects.toThrow(
      `The log ${link} is a symbolic link; the server never follows a link at a name it makes itself: remove it, and the server creates the file; it was left as it is.`,
    )
    mkdirSync(join(where, 'a-folder'))
    await expect(checkDerivedPath(join(where, 'a-folder'), 'log')).rejects.toThrow(`The log ${join(where, 'a-folder')} is a directory, not a regular file; it was left as it is.`)
    execFileSync('mkfifo', [join(where, 'pipe')])
    await expect(checkDerivedPath(join(where, 'pipe'), 'log')).rejects.toThrow(`The log ${join(where, 'pipe')} is a named pipe, not a regular file; it was left as it is.`)
  })

  it.skipIf(!asRoot)("refuses another user's file", async () => {
    const path = join(folder('derived-others'), 'world.json.log')
    writeFileSync(path, '')
    chownSync(path, NOBODY, NOBODY)
    await expect(checkDerivedPath(path, 'log')).rejects.toThrow(
      `The log ${path} belongs to another user (uid ${NOBODY}); the server only writes files of its own user there; it was left as it is.`,
    )
  })
})

describe('reading input files', () => {
  it('opens a regular file; refuses a device, a pipe (without waiting for a writer), a folder and a link at once', async () => {
    const where = folder('input')
    const file = join(where, 'bundle.json')
    writeFileSync(file, '{}')
    const handle = await openRegularFile(file)
    expect(await handle.readFile('utf8')).toBe('{}')
    await handle.close()
    await expect(openRegularFile('/dev/zero')).rejects.toThrow(new NotRegularFile(await import('node:fs').then((fs) => fs.statSync('/dev/zero'))))
    execFileSync('mkfifo', [join(where, 'pipe')])
    const pipe = await openRegularFile(join(where, 'pipe')).catch((error: unknown) => error)
    expect(readProblem(pipe)).toBe('it is a named pipe, not a regular file')
    expect(readProblem(await openRegularFile(where).catch((error: unknown) => error))).toBe('it is a directory')
    symlinkSync(file, join(where, 'link.json'))
    expect(readProblem(await openRegularFile(join(where, 'link.json')).catch((error: unknown) => error))).toBe('too many symbolic links')
  })

  it('says in one line what an input file is, through a link of its own user', async () => {
    const where = folder('input-named')
    await expect(openInputFile('/dev/zero', 'bundle file')).rejects.toThrow('Cannot read bundle file /dev/zero: it is a device, not a regular file.')
    await expect(openInputFile(join(where, 'missing.har'), 'HAR file')).rejects.toThrow(`Cannot read HAR file ${join(where, 'missing.har')}: no such file.`)
    const { link } = linked(where)
    const handle = await openInputFile(link, 'bundle file')
    expect(await handle.readFile('utf8')).toBe('{}\n')
    await handle.close()
  })

  it.skipIf(!asRoot)('refuses an input through a link another user made', async () => {
    const shared = folder('input-sticky')
    chmodSync(shared, 0o1777)
    const { link } = linked(shared, NOBODY)
    await expect(openInputFile(link, 'bundle file')).rejects.toThrow(
      `Cannot read bundle file ${link}: it is a symbolic link made by another user (uid ${NOBODY}), in a folder anyone can write to; it is not followed (as Linux's protected_symlinks).`,
    )
  })
})
