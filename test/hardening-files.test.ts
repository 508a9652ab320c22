/**
 * The files the CLI writes and reads (issue 43, item 3), with the real CLI:
 * a name the server derives itself (`<state file>.log`) is never followed as a
 * link, and a log it did not write is never "repaired" (rewritten); a path the
 * user named (`--state-file`, `--record`, `scenario from-har --out`) is followed
 * through a link only as Linux's `protected_symlinks` would, and stricter: a
 * link another user made (not root, not the folder's owner) is refused, in a
 * world-writable sticky folder such as /tmp or anywhere else, and running as
 * root does not lift the rule (Linux does not exempt root either). The files
 * it reads (`--replay`, `scenario from-har`) must be regular files: a device
 * or a pipe is refused at once, never read. Each refusal is one line, exit 1,
 * and whatever the path pointed to is left as it was.
 *
 * The tests run as root (CI containers): a link "of another user" is made with
 * lchown to uid 65534 (nobody).
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, lchownSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, startCli } from './support/cli-server.js'

const NOBODY = 65534
const root = mkdtempSync(join(tmpdir(), 'mam-hardening-files-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const fresh = (name: string) => mkdtempSync(join(root, `${name}-`))

/** A file someone else cares about, with its mode: it must come out as it went in. */
function victim(folder: string, text = 'not yours\n'): { path: string; unchanged: () => void } {
  const path = join(folder, 'victim.txt')
  writeFileSync(path, text, { mode: 0o644 })
  chmodSync(path, 0o644)
  return {
    path,
    unchanged: () => {
      expect(readFileSync(path, 'utf8')).toBe(text)
      expect(statSync(path).mode & 0o777).toBe(0o644)
    },
  }
}

/** A link another user (nobody) made at `name` in `folder` (made world-writable and sticky, as /tmp, with `sticky`), pointing at a file of ours. */
function plantedLink(folder: string, name: string, { sticky = false } = {}): { target: ReturnType<typeof victim>; link: string } {
  if (sticky) chmodSync(folder, 0o1777)
  const target = victim(fresh('target'))
  const link = join(folder, name)
  symlinkSync(target.path, link)
  lchownSync(link, NOBODY, NOBODY)
  return { target, link }
}
/** A start or command that must fail: exit 1, one line on stderr, nothing listening. */
async function refused(args: string[], timeoutMs = 15_000): Promise<string> {
  const run = await runCli(args, timeoutMs)
  expect(run.stdout).not.toContain('listening on')
  expect(run.code, run.stderr).toBe(1)
  const lines = run.stderr.trim().split('\n')
  expect(lines, run.stderr).toHaveLength(1)
  return lines[0]!
}

const serve = (...args: string[]) => ['serve', '--port', '0', '--quiet', ...args]

describe('the state file log, a name the server derives', () => {
  it('refuses to start when <file>.log is a symlink, and leaves the file it points to as it was', async () => {
    const folder = fresh('log-link')
    const target = victim(fresh('elsewhere'))
    const file = join(folder, 'world.json')
    symlinkSync(target.path, `${file}.log`)
    const line = await refused(serve('--state-file', file))
    expect(line).toBe(
      `multi-area-mock: The log ${file}.log is a symbolic link; the server never follows a link at a name it makes itself: remove it, and the server creates the file; it was left as it is.`,
    )
    target.unchanged()
    expect(lstatSync(`${file}.log`).isSymbolicLink()).toBe(true)
    expect(existsSync(file)).toBe(false)
  })

  it('refuses to start on a <file>.log it did not write (no log header), and leaves it as it is', async () => {
    const folder = fresh('foreign-log')
    const file = join(folder, 'world.json')
    const foreign = victim(folder, '{"someone": "else\'s file"}\n')
    // A hard link: the same file under the log's name, as a mistake or a plant would leave it.
    execFileSync('ln', [foreign.path, `${file}.log`])
    const line = await refused(serve('--state-file', file))
    expect(line).toBe(
      `multi-area-mock: The log ${file}.log does not start with the line multi-area-mock writes first, so it is not a log this server wrote; move it away or delete it; it was left as it is.`,
    )
    foreign.unchanged()
    expect(existsSync(file)).toBe(false)
  })

  it('refuses a <file>.log owned by another user', async () => {
    const folder = fresh('others-log')
    const file = join(folder, 'world.json')
    writeFileSync(`${file}.log`, '')
    lchownSync(`${file}.log`, NOBODY, NOBODY)
    const line = await refused(serve('--state-file', file))
    expect(line).toBe(`multi-area-mock: The log ${file}.log belongs to another user (uid ${NOBODY}); the server only writes files of its own user there; it was left as it is.`)
  })
})

describe('a state file path the user named', () => {
  it('refuses a symlink another user made in a world-writable sticky folder (as protected_symlinks), leaving its target as it was', async () => {
    const shared = fresh('sticky')
    const { target, link } = plantedLink(shared, 'world.json', { sticky: true })
    const line = await refused(serve('--state-file', link))
    expect(line).toBe(
      `multi-area-mock: The state file ${link} is a symbolic link made by another user (uid ${NOBODY}), in a folder anyone can write to; it is not followed (as Linux's protected_symlinks); give the path of the file itself; it was left as it is.`,
    )
    target.unchanged()
  })

  it('refuses a symlink owned by another user in a folder of its own user too', async () => {
    const folder = fresh('others-link')
    const { target, link } = plantedLink(folder, 'world.json')
    const line = await refused(serve('--state-file', link))
    expect(line).toBe(
      `multi-area-mock: The state file ${link} is a symbolic link made by another user (uid ${NOBODY}), not by this user or the folder's owner; it is not followed; give the path of the file itself; it was left as it is.`,
    )
    target.unchanged()
  })

  it("follows the user's own symlink in a sticky folder: the world is kept in the file it points to", async () => {
    const shared = fresh('sticky-own')
    chmodSync(shared, 0o1777)
    const target = join(fresh('target'), 'real.json')
    const link = join(shared, 'world.json')
    const first = await startCli(['--quiet', '--state-file', target])
    expect(await first.stop()).toBe(0)
    symlinkSync(target, link)
    const server = await startCli(['--quiet', '--state-file', link])
    expect(await server.stop()).toBe(0)
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(statSync(target).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(target, 'utf8')).format).toBe(1)
  })
})

describe('--record and scenario from-har --out', () => {
  it('refuses --record at a symlink another user made, before listening', async () => {
    const shared = fresh('record')
    const { target, link } = plantedLink(shared, 'recorded.json', { sticky: true })
    const line = await refused(serve('--proxy', 'admin=http://127.0.0.1:9', '--record', link))
    expect(line).toContain(`The recording file ${link} is a symbolic link made by another user (uid ${NOBODY})`)
    target.unchanged()
  })

  it('refuses from-har --out at a symlink another user made, leaving its target as it was', async () => {
    const folder = fresh('out')
    const har = join(folder, 'session.har')
    writeFileSync(
      har,
      JSON.stringify({
        log: { version: '1.2', entries: [{ request: { method: 'GET', url: 'http://x.test/core/products' }, response: { status: 200, content: { text: '[]' } } }] },
      }),
    )
    const shared = fresh('out-shared')
    const { target, link } = plantedLink(shared, 'recorded.json', { sticky: true })
    const line = await refused(['scenario', 'from-har', har, '--out', link])
    expect(line).toContain(`The output file ${link} is a symbolic link made by another user (uid ${NOBODY})`)
    target.unchanged()
  })
})

describe('files read: --replay and scenario from-har take regular files only', () => {
  const fifo = () => {
    const path = join(fresh('fifo'), 'pipe')
    execFileSync('mkfifo', [path])
    return path
  }

  it('refuses --replay /dev/zero at once, with one line', async () => {
    expect(await refused(serve('--replay', '/dev/zero'), 10_000)).toBe('multi-area-mock: Cannot read bundle file /dev/zero: it is a device, not a regular file.')
  })

  it('refuses --replay of a named pipe without waiting for a writer', async () => {
    const path = fifo()
    expect(await refused(serve('--replay', path), 10_000)).toBe(`multi-area-mock: Cannot read bundle file ${path}: it is a named pipe, not a regular file.`)
  })

  it('refuses scenario from-har /dev/zero and a named pipe, with one line each', async () => {
    expect(await refused(['scenario', 'from-har', '/dev/zero'], 10_000)).toBe('multi-area-mock: Cannot read HAR file /dev/zero: it is a device, not a regular file.')
    const path = fifo()
    expect(await refused(['scenario', 'from-har', path], 10_000)).toBe(`multi-area-mock: Cannot read HAR file ${path}: it is a named pipe, not a regular file.`)
  })

  it('refuses --scenario and --fault @file of a device or a named pipe, at once', async () => {
    expect(await refused(serve('--scenario', '/dev/zero'), 10_000)).toBe('multi-area-mock: Cannot read scenario file /dev/zero: it is a device, not a regular file.')
    const path = fifo()
    expect(await refused(serve('--scenario', path), 10_000)).toBe(`multi-area-mock: Cannot read scenario file ${path}: it is a named pipe, not a regular file.`)
    // An invalid flag value is commander's usage error, as every other one.
    const fault = await runCli(serve('--fault', '@/dev/zero'), 10_000)
    expect(fault.code).not.toBe(0)
    expect(fault.stderr).toContain("option '--fault <rule>' argument '@/dev/zero' is invalid. cannot read /dev/zero: it is not a regular file.")
  })
})
