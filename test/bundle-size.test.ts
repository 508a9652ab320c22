/**
 * What a browser app loads from us stays small: `bench/bundle-size.js` (the
 * `npm run size` script, on the built package) bundles an app importing
 * `multi-area-mock/browser` with esbuild, code splitting on; here its report is
 * checked against its budgets (issue 8's, tightened in issue 32 to the size then
 * plus a margin) and for stray locales: a whole faker locale is ~114 kB
 * gzipped, and `import { z } from 'zod'` instead of `import * as z from 'zod'`
 * pulls in all of zod's ~40 locales. What the page loads before msw's worker
 * starts is the entry alone; the simulator (zod, faker, the areas) is a chunk
 * loaded meanwhile (issue 32, docs/browser.md).
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

/** Everything, each file gzipped: 216.9 kB when issue 32 set it. */
const GZIP_BUDGET = 240_000
/** Before the worker starts: the entry, msw excluded (1.4 kB when issue 32 set it). */
const INITIAL_GZIP_BUDGET = 5_000
/** The inspector page's own code (script and style, Preact included), issue 24. */
const INSPECTOR_GZIP_BUDGET = 60_000

it('keeps the browser bundle under budget, with no whole faker locale and one zod locale', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['bench/bundle-size.js', '--json'])
  const report = JSON.parse(stdout) as {
    minified: number
    gzipped: number
    initial: { gzipped: number }
    packages: Record<string, number>
    files: string[]
    initialFiles: string[]
    inspector: { gzipped: number }
  }
  expect(report.packages).not.toHaveProperty('msw')
  expect(report.files.filter((file) => /node:|@remix-run|commander/.test(file))).toEqual([])
  const locales = (pattern: RegExp) => report.files.map((file) => pattern.exec(file)?.[1]).filter((name) => name !== undefined)
  // No whole faker locale: only `base` and the few `en` lists seeding uses (fixtures/faker-en.json).
  expect(locales(/@faker-js\/faker\/dist\/([a-z]{2,3}(?:_[A-Za-z]+)?)-[\w-]+\.js$/)).toEqual([])
  expect(report.files).toContain('fixtures/faker-en.json')
  expect(locales(/zod\/v4\/locales\/([\w-]+)\.js$/)).toEqual(['en'])
  expect(report.gzipped, `gzipped ${report.gzipped} B; see npm run size for what grew`).toBeLessThan(GZIP_BUDGET)
})

it('loads only the entry before the worker starts: the simulator, zod, faker and the areas come in a chunk of their own', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['bench/bundle-size.js', '--json'])
  const report = JSON.parse(stdout) as { gzipped: number; initial: { gzipped: number }; initialFiles: string[] }
  expect(report.initialFiles.filter((file) => /node_modules\/(zod|@faker-js|@msw\/data|jose|@noble)\/|src\/(areas|world)\/|create-simulator/.test(file))).toEqual([])
  expect(report.initial.gzipped, `the entry is ${report.initial.gzipped} B gzipped; see npm run size`).toBeLessThan(INITIAL_GZIP_BUDGET)
  expect(report.gzipped - report.initial.gzipped).toBeGreaterThan(100_000)
})

it('keeps the inspector page under its budget', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['bench/bundle-size.js', '--json'])
  const { inspector } = JSON.parse(stdout) as { inspector: { gzipped: number; files: Array<{ name: string }> } }
  expect(inspector.files.map((file) => file.name)).toEqual(['inspector.js', 'inspector.css'])
  expect(inspector.gzipped, `the inspector is ${inspector.gzipped} B gzipped; see npm run size`).toBeLessThan(INSPECTOR_GZIP_BUDGET)
})
