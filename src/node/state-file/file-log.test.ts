import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { FileLog, type FileLogOptions } from './file-log.js'
import { entryLine, headerLine, markLine } from './log-lines.js'

// The real rename, watched: a test copies the files as a crash at that very moment would leave them.
const renames = vi.hoisted(() => ({ before: undefined as ((to: string) => void) | undefined, after: undefined as ((to: string) => void) | undefined }))
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>()
  const rename = async (from: string, to: string) => {
    renames.before?.(to)
    await actual.rename(from, to)
    renames.after?.(to)
  }
  return { ...actual, rename }
})
afterEach(() => {
  renames.before = renames.after = undefined
})

const dir = mkdtempSync(join(tmpdir(), 'mam-file-log-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const folder = (name: string) => mkdtempSync(join(dir, `${name}-`))

/** Opens `path`, collecting warnings; the sync seam counts the fsyncs of appended batches. */
async function openLog(path: string, options: FileLogOptions = {}) {
  const warnings: string[] = []
  const syncs = { count: 0 }
  const sync = options.sync ?? ((file: FileHandle) => file.datasync())
  const load = await FileLog.open(path, {
    onWarning: (message) => warnings.push(message),
    sync: (file) => (syncs.count++, sync(file)),
  })
  return { ...load, warnings, syncs }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const tails = (path: string) => readdirSync(dirname(path)).filter((name) => name.endsWith('.tmp'))

describe('FileLog', () => {
  it('creates nothing until the first append, then keeps entries in order across a reopen, owner-only', async () => {
    const path = join(folder('fresh'), 'world.json')
    const { log, snapshot, entries } = await openLog(path)
    expect([snapshot, entries]).toEqual([undefined, []])
    expect(readdirSync(dirname(path))).toEqual([])
    await Promise.all(['{"n":1}', '{"n":2}', 'plain text', ''].map((entry) => log.append(entry)))
    expect(log.length).toBe(4)
    await log.close()
    expect(readdirSync(dirname(path))).toEqual(['world.json.log'])
    expect(statSync(`${path}.log`).mode & 0o777).toBe(0o600)

    const again = await openLog(path)
    expect([again.snapshot, again.entries, again.warnings]).toEqual([undefined, ['{"n":1}', '{"n":2}', 'plain text', ''], []])
    expect(again.log.length).toBe(4)
    await again.log.close()
  })

  it('loads a snapshot with no log (a state file of today) and creates the log at the first append', async () => {
    const path = join(folder('snapshot-only'), 'world.json')
    writeFileSync(path, '{"accounts":{}}\n')
    const first = await openLog(path)
    expect([first.snapshot, first.entries]).toEqual(['{"accounts":{}}\n', []])
    expect(readdirSync(dirname(path))).toEqual(['world.json'])
    await first.log.append('after')
    await first.log.close()
    const again = await openLog(path)
    expect([again.snapshot, again.entries, again.warnings]).toEqual(['{"accounts":{}}\n', ['after'], []])
    await again.log.close()
  })

  it('writes every append of one turn with one fsync, later turns with their own, in order', async () => {
    const path = join(folder('batch'), 'world.json')
    const { log, syncs } = await openLog(path)
    const burst = Array.from({ length: 100 }, (_, i) => log.append(`burst ${i}`))
    await Promise.all(burst)
    expect(syncs.count).toBe(1)
    // Appends over several turns, none awaited before the next: each turn a batch, all in call order.
    const spread: Promise<void>[] = []
    for (let turn = 0; turn < 3; turn++) {
      spread.push(log.append(`turn ${turn} a`), log.append(`turn ${turn} b`))
      await new Promise((resolve) => setImmediate(resolve))
    }
    await Promise.all(spread)
    expect(syncs.count).toBeGreaterThan(1)
    expect(syncs.count).toBeLessThanOrEqual(4)
    await log.close()
    const { entries } = await openLog(path)
    expect(entries).toEqual([...Array.from({ length: 100 }, (_, i) => `burst ${i}`), ...[0, 1, 2].flatMap((turn) => [`turn ${turn} a`, `turn ${turn} b`])])
  })

  it('rejects every append of a batch whose fsync failed with one line, keeps none of them, and writes later appends', async () => {
    const path = join(folder('fails'), 'world.json')
    let fail = false
    const { log } = await openLog(path, {
      sync: async (file) => {
        if (fail) throw Object.assign(new Error('i/o error'), { code: 'EIO' })
        await file.datasync()
      },
    })
    await log.append('kept 1')
    fail = true
    const failed = await Promise.allSettled([log.append('lost 1'), log.append('lost 2')])
    expect(failed).toEqual([
      { status: 'rejected', reason: expect.objectContaining({ name: 'ConfigError', message: `Cannot write the log ${path}.log (EIO).` }) },
      { status: 'rejected', reason: expect.objectContaining({ name: 'ConfigError', message: `Cannot write the log ${path}.log (EIO).` }) },
    ])
    fail = false
    await log.append('kept 2')
    expect(log.length).toBe(2)
    await log.close()
    const again = await openLog(path)
    expect([again.entries, again.warnings]).toEqual([['kept 1', 'kept 2'], []])
    await again.log.close()
  })

  it('refuses an entry of more than one line', async () => {
    const { log } = await openLog(join(folder('lines'), 'world.json'))
    await expect(log.append('two\nlines')).rejects.toThrow('A log entry must be a single line.')
    await log.close()
    await expect(log.append('late')).rejects.toThrow(/is closed\.$/)
  })
})

describe('a torn or corrupt log', () => {
  async function logWith(name: string, entries: string[]): Promise<string> {
    const path = join(folder(name), 'world.json')
    const { log } = await openLog(path)
    await Promise.all(entries.map((entry) => log.append(entry)))
    await log.close()
    return path
  }

  /** Opens, expects `entries` and one warning matching `warning`, then checks that the file was cut: an append lands right after the good lines. */
  async function expectCut(path: string, entries: string[], warning: RegExp | string) {
    const { log, entries: loaded, warnings } = await openLog(path)
    expect(loaded).toEqual(entries)
    expect(warnings).toHaveLength(1)
    if (typeof warning === 'string') expect(warnings[0]).toBe(warning)
    else expect(warnings[0]).toMatch(warning)
    expect(warnings[0]).not.toContain('\n')
    await log.append('after the cut')
    await log.close()
    const again = await openLog(path)
    expect([again.entries, again.warnings]).toEqual([[...entries, 'after the cut'], []])
    await again.log.close()
  }

  it('cuts a partial last line', async () => {
    const path = await logWith('partial', ['one', 'two', 'three'])
    appendFileSync(`${path}.log`, entryLine('four').slice(0, 7))
    await expectCut(path, ['one', 'two', 'three'], /^Cut a torn last line \(7 bytes\) from the log .+world\.json\.log, .+; the 3 entries before it are kept\.$/)
  })

  it('cuts a last line whose checksum does not match (a flipped bit)', async () => {
    const path = await logWith('flipped', ['one', 'two', 'three'])
    const text = readFileSync(`${path}.log`, 'utf8')
    writeFileSync(`${path}.log`, text.replace('three', 'thref'))
    const message = `Cut ${entryLine('three').length} bytes (1 lines) from the log ${path}.log from line 4 on, which is torn or corrupt; the 2 entries before it are kept.`
    await expectCut(path, ['one', 'two'], message)
  })

  it('cuts garbage after the last good line (zeros a crash left at the end)', async () => {
    const path = await logWith('zeros', ['one', 'two'])
    appendFileSync(`${path}.log`, Buffer.alloc(4096))
    await expectCut(path, ['one', 'two'], /^Cut a torn last line \(4096 bytes\)/)
  })

  it('cuts at a bad line in the middle, good lines after it included, and says so', async () => {
    const path = await logWith('middle', ['one', 'two', 'three', 'four', 'five'])
    const text = readFileSync(`${path}.log`, 'utf8')
    writeFileSync(`${path}.log`, text.replace('two', 'tw0'))
    await expectCut(
      path,
      ['one'],
      /from line 3 on, which is torn or corrupt, with 3 intact-looking lines after it \(entries must stay in order\); the 1 entries before it are kept\.$/,
    )
  })
})

describe('compaction', () => {
  it('writes the snapshot safely and restarts the log: entries folded into it are not replayed', async () => {
    const path = join(folder('compact'), 'world.json')
    const { log } = await openLog(path)
    await Promise.all([log.append('a'), log.append('b')])
    await log.compact('{"upTo":2}\n')
    expect(log.length).toBe(0)
    await log.append('c')
    expect(log.length).toBe(1)
    await log.close()
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(tails(path)).toEqual([])
    const again = await openLog(path)
    expect([again.snapshot, again.entries, again.warnings]).toEqual(['{"upTo":2}\n', ['c'], []])
    await again.log.close()
  })

  it('keeps the appends made while the snapshot is written, after it; they are on disk before it is', async () => {
    const path = join(folder('during'), 'world.json')
    const { log } = await openLog(path)
    await log.append('before')
    async function* snapshot() {
      yield '{"upTo":'
      // Not held up by the compaction: each resolves (on disk) while the snapshot is still being written.
      await log.append('during 1')
      await log.append('during 2')
      yield Buffer.from('1}\n')
    }
    const compacted = log.compact(snapshot())
    const after = log.append('after the call')
    await Promise.all([compacted, after])
    expect(log.length).toBe(3)
    await log.close()
    const again = await openLog(path)
    // In the order of the calls: `after the call` was made before the snapshot's generator ran.
    expect([again.snapshot, again.entries]).toEqual(['{"upTo":1}\n', ['after the call', 'during 1', 'during 2']])
    await again.log.close()
  })

  it('after a crash just after the snapshot was renamed in (before the log restarted), replays only the entries it does not hold', async () => {
    const path = join(folder('crash'), 'world.json')
    const crashAfter = folder('crash-after')
    const crashBefore = folder('crash-before')
    const copy = (to: string) => {
      copyFileSync(path, join(to, 'world.json'))
      copyFileSync(`${path}.log`, join(to, 'world.json.log'))
    }
    writeFileSync(path, '{"upTo":0}\n')
    const { log } = await openLog(path)
    await Promise.all([log.append('1'), log.append('2')])
    renames.before = (to) => void (to === path && copy(crashBefore))
    renames.after = (to) => void (to === path && copy(crashAfter))
    async function* snapshot() {
      yield '{"upTo":2}\n'
      await log.append('3')
    }
    await Promise.all([log.compact(snapshot()), log.append('4')])
    await log.close()

    // The snapshot is the new one, the log the old one (its header names the old snapshot).
    expect(readFileSync(join(crashAfter, 'world.json'), 'utf8')).toBe('{"upTo":2}\n')
    const after = await openLog(join(crashAfter, 'world.json'))
    expect([after.snapshot, after.entries, after.warnings]).toEqual(['{"upTo":2}\n', ['4', '3'], []])
    await after.log.append('5')
    await after.log.close()
    expect((await openLog(join(crashAfter, 'world.json'))).entries).toEqual(['4', '3', '5'])
    expect(readFileSync(join(crashAfter, 'world.json.log'), 'utf8').startsWith(headerLine(sha256('{"upTo":2}\n')))).toBe(true)

    // A moment earlier: the old snapshot, and every entry in the log.
    const before = await openLog(join(crashBefore, 'world.json'))
    expect([before.snapshot, before.entries, before.warnings]).toEqual(['{"upTo":0}\n', ['1', '2', '4', '3'], []])
    await before.log.close()
  })

  it('runs compactions one after another, each covering the appends made before its call', async () => {
    const path = join(folder('twice'), 'world.json')
    const { log } = await openLog(path)
    const calls = [log.append('a'), log.compact('{"upTo":1}\n'), log.append('b'), log.compact('{"upTo":2}\n'), log.append('c')]
    await Promise.all(calls)
    expect(log.length).toBe(1)
    await log.close()
    const again = await openLog(path)
    expect([again.snapshot, again.entries]).toEqual(['{"upTo":2}\n', ['c']])
    await again.log.close()
  })

  it('fails in one line when the snapshot cannot be made, leaving nothing behind and the log as it was', async () => {
    const path = join(folder('broken'), 'world.json')
    const { log } = await openLog(path)
    await log.append('a')
    async function* broken() {
      yield '{"partial":'
      throw new Error('the world went away\nat somewhere')
    }
    await expect(log.compact(broken())).rejects.toMatchObject({ name: 'ConfigError', message: `Cannot write the snapshot ${path} (the world went away).` })
    await log.append('b')
    await log.close()
    expect(readdirSync(dirname(path))).toEqual(['world.json.log'])
    expect((await openLog(path)).entries).toEqual(['a', 'b'])
  })

  it('drops, with one note, a log that follows another snapshot than the one on disk (replaced by hand)', async () => {
    const path = join(folder('replaced'), 'world.json')
    writeFileSync(path, '{"v":1}\n')
    writeFileSync(`${path}.log`, headerLine(sha256('{"v":0}\n')) + entryLine('old 1') + markLine(sha256('{"v":9}\n'), 1) + entryLine('old 2'))
    const { log, entries, warnings } = await openLog(path)
    expect(entries).toEqual([])
    expect(warnings).toEqual([`The log ${path}.log follows another snapshot than ${path} (replaced by hand?); its 2 entries were dropped.`])
    await log.append('new')
    await log.close()
    expect(await openLog(path)).toMatchObject({ entries: ['new'], warnings: [] })
  })
})

describe('files on disk', () => {
  it('refuses a log that is a symlink, to nothing or to a log, and leaves the link and its target as they are', async () => {
    const where = folder('links')
    const path = join(where, 'world.json')
    symlinkSync('gone.log', `${path}.log`)
    const refusal = `The log ${path}.log is a symbolic link; the server never follows a link at a name it makes itself: remove it, and the server creates the file; it was left as it is.`
    await expect(FileLog.open(path)).rejects.toMatchObject({ name: 'ConfigError', message: refusal })
    expect(existsSync(join(where, 'gone.log'))).toBe(false)

    // Even a real log of this class elsewhere: the name is the server's, so a link there is someone else's doing.
    const elsewhere = folder('links-target')
    const real = join(elsewhere, 'real.log')
    writeFileSync(real, headerLine('none') + entryLine('kept'), { mode: 0o644 })
    rmSync(`${path}.log`)
    symlinkSync(real, `${path}.log`)
    await expect(FileLog.open(path)).rejects.toMatchObject({ name: 'ConfigError', message: refusal })
    expect(readlinkSync(`${path}.log`)).toBe(real)
    expect(readFileSync(real, 'utf8')).toBe(headerLine('none') + entryLine('kept'))
    expect(statSync(real).mode & 0o777).toBe(0o644)
  })

  it('never repairs a log it did not write: a file without its header is refused and left as it is', async () => {
    const where = folder('foreign')
    const path = join(where, 'world.json')
    for (const text of ['{"not": "a log"}\n', 'partial header, no newline', `${headerLine('none').slice(0, 12)}\n${entryLine('x')}`]) {
      writeFileSync(`${path}.log`, text)
      await expect(FileLog.open(path)).rejects.toMatchObject({
        name: 'ConfigError',
        message: `The log ${path}.log does not start with the line multi-area-mock writes first, so it is not a log this server wrote; move it away or delete it; it was left as it is.`,
      })
      expect(readFileSync(`${path}.log`, 'utf8')).toBe(text)
    }
    // An empty file holds nothing to lose: taken as no log.
    writeFileSync(`${path}.log`, '')
    const { log, entries } = await openLog(path)
    expect(entries).toEqual([])
    await log.append('first')
    await log.close()
    expect((await openLog(path)).entries).toEqual(['first'])
  })

  it('refuses a state file that is a named pipe at once, without waiting for a writer', async () => {
    const where = folder('pipe')
    const path = join(where, 'world.json')
    spawnSync('mkfifo', [path])
    await expect(FileLog.open(path, { label: 'state file' })).rejects.toMatchObject({
      name: 'ConfigError',
      message: `Cannot read the state file ${path} (it is a named pipe, not a regular file); it was left as it is.`,
    })
  })

  it('keeps every append that resolved before a kill -9, in order, compactions and all', async () => {
    const where = folder('killed')
    const child = join(where, 'child.mjs')
    await build({
      stdin: { contents: CHILD, resolveDir: dirname(fileURLToPath(import.meta.url)), loader: 'ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: child,
      logLevel: 'silent',
    })
    let compactions = 0
    // Killed by itself right as an append resolved (nothing after it written yet), or by this process a moment later.
    for (const [killAt, by] of [
      [700, 'self'],
      [2_000, 'parent'],
      [3_500, 'self'],
    ] as const) {
      const path = join(where, `world-${killAt}.json`)
      const printed = await runUntilKilled(child, path, killAt, by)
      const { snapshot, entries, log } = await openLog(path)
      await log.close()
      const upTo = snapshot === undefined ? 0 : (JSON.parse(snapshot) as { upTo: number }).upTo
      // The entries follow the snapshot with no gap and no repeat, and hold every index printed.
      expect(entries).toEqual(entries.map((_, i) => String(upTo + i)))
      expect(Math.max(...printed.indices)).toBeLessThan(upTo + entries.length)
      compactions += printed.compactions
    }
    expect(compactions).toBeGreaterThan(0)
  })
})

/**
 * The child: appends `0, 1, 2, ...` (32 in flight), prints each index once its append resolved, compacts every 400
 * appends; given a count, it kills itself with SIGKILL as soon as it has printed that many (stdout to a pipe is synchronous).
 */
const CHILD = `
import { FileLog } from './file-log.ts'
const { log } = await FileLog.open(process.argv[2])
const killAt = Number(process.argv[3])
let appended = 0
let printed = 0
let compacting = false
const one = () => {
  const index = appended++
  void log.append(String(index)).then(() => {
    process.stdout.write(index + '\\n')
    if (++printed === killAt) process.kill(process.pid, 'SIGKILL')
    one()
  })
  if (index % 400 === 399 && !compacting) {
    compacting = true
    void log.compact(JSON.stringify({ upTo: appended }) + '\\n').then(() => { compacting = false; process.stdout.write('compacted\\n') })
  }
}
for (let i = 0; i < 32; i++) one()
`

/** Runs the child until it has printed `count` indices, when it (`self`) or this process kills it with SIGKILL; returns what it printed. */
function runUntilKilled(child: string, path: string, count: number, by: 'self' | 'parent'): Promise<{ indices: number[]; compactions: number }> {
  return new Promise((resolve, reject) => {
    const running = spawn(process.execPath, [child, path, by === 'self' ? String(count) : '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
    const printed = { indices: [] as number[], compactions: 0 }
    let buffered = ''
    let stderr = ''
    running.stderr.on('data', (chunk) => (stderr += chunk))
    running.stdout.on('data', (chunk: Buffer) => {
      const lines = (buffered + chunk.toString()).split('\n')
      buffered = lines.pop()!
      for (const line of lines) {
        if (line === 'compacted') printed.compactions++
        else printed.indices.push(Number(line))
      }
      if (printed.indices.length >= count && by === 'parent') running.kill('SIGKILL')
    })
    running.on('error', reject)
    running.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(printed)
      else reject(new Error(`the child stopped by itself (${code}): ${stderr.split('\n')[0]}`))
    })
  })
}
