import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { replaceFile, writeTemporary } from './safe-replace.js'

// More cases (planted links, name clashes, symlinked targets) run through StateFile in state-file.test.ts.
const dir = mkdtempSync(join(tmpdir(), 'mam-safe-replace-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('replaces a file with an owner-only one, and on a failed write leaves the old file and no temporary file', async () => {
  const folder = mkdtempSync(join(dir, 'replace-'))
  const target = join(folder, 'world.json')
  writeFileSync(target, 'old\n', { mode: 0o644 })
  await replaceFile(target, (file) => file.writeFile('new\n'))
  expect(readFileSync(target, 'utf8')).toBe('new\n')
  expect(statSync(target).mode & 0o777).toBe(0o600)

  const failure = Object.assign(new Error('disk full'), { code: 'ENOSPC' })
  await expect(
    replaceFile(target, async (file) => {
      await file.writeFile('half')
      throw failure
    }),
  ).rejects.toBe(failure)
  await expect(writeTemporary(target, () => Promise.reject(failure))).rejects.toBe(failure)
  expect(readFileSync(target, 'utf8')).toBe('new\n')
  expect(readdirSync(folder)).toEqual(['world.json'])
})
