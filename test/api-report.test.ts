/**
 * The API report check (`npm run api:check`, scripts/api-report.js,
 * docs/api-report.md) fails when a committed report differs from the built
 * declarations, with one line naming the entry and the command to run. That it
 * passes when they agree is `npm run api:check` itself, run by `npm test` before
 * vitest. Reads dist/ as built (`npm run build` first, as `npm test` does), and a
 * changed copy of one report in a temporary folder: api/ is left alone. One
 * entry, the smallest (vitest), keeps it to one API Extractor run of a few seconds.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
const ENTRY = 'multi-area-mock/vitest'
const REPORT = 'multi-area-mock-vitest.api.md'

function apiCheck(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['scripts/api-report.js', '--entry', ENTRY, ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr })
    })
  })
}

it('fails, with one line naming the entry and `npm run api:report`, when a line of its committed report changed', { timeout: 60_000 }, async () => {
  const reports = mkdtempSync(join(tmpdir(), 'api-report-test-'))
  try {
    const lines = readFileSync(join(ROOT, 'api', REPORT), 'utf8').split('\n')
    const changed = lines.findIndex((line) => line.startsWith('export '))
    expect(changed).toBeGreaterThan(0)
    lines[changed] = 'export function notInTheDeclarations(): void;'
    writeFileSync(join(reports, REPORT), lines.join('\n'))

    const run = await apiCheck('--reports', reports)
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    const message = run.stderr.trim().split('\n')
    expect(message).toHaveLength(1)
    expect(message[0]).toMatch(
      new RegExp(`^api-report: the public API of ${ENTRY} differs from \\S*/${REPORT.replaceAll('.', '\\.')}: run \`npm run api:report\` and review the diff\\.$`),
    )
  } finally {
    rmSync(reports, { recursive: true, force: true })
  }
})
