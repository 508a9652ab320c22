/**
 * What a browser app loads from us stays small: `bench/bundle-size.js` (the
 * `npm run size` script, on the built package) bundles an app importing
 * `multi-area-mock/browser` with esbuild; here its report is checked against
 * the budget of issue 8 and for stray locales: a whole faker locale is ~114 kB
 * gzipped, and `import { z } from 'zod'` instead of `import * as z from 'zod'`
 * pulls in all of zod's ~40 locales.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const GZIP_BUDGET = 250_000
/** The inspector page's own code (script and style, Preact included), issue 24. */
const INSPECTOR_GZIP_BUDGET = 60_000

it('keeps the browser bundle under budget, with no whole faker locale and one zod locale', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['bench/bundle-size.js', '--json'])
  const report = JSON.parse(stdout) as { minified: number; gzipped: number; packages: Record<string, number>; files: string[]; inspector: { gzipped: number } }
  expect(report.packages).not.toHaveProperty('msw')
  expect(report.files.filter((file) => /node:|@remix-run|commander/.test(file))).toEqual([])
  const locales = (pattern: RegExp) => report.files.map((file) => pattern.exec(file)?.[1]).filter((name) => name !== undefined)
  // No whole faker locale: only `base` and the few `en` lists seeding uses (fixtures/faker-en.json).
  expect(locales(/@faker-js\/faker\/dist\/([a-z]{2,3}(?:_[A-Za-z]+)?)-[\w-]+\.js$/)).toEqual([])
  expect(report.files).toContain('fixtures/faker-en.json')
  expect(locales(/zod\/v4\/locales\/([\w-]+)\.js$/)).toEqual(['en'])
  expect(report.gzipped, `gzipped ${report.gzipped} B; see npm run size for what grew`).toBeLessThan(GZIP_BUDGET)
})

it('keeps the inspector page under its budget', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['bench/bundle-size.js', '--json'])
  const { inspector } = JSON.parse(stdout) as { inspector: { gzipped: number; files: Array<{ name: string }> } }
  expect(inspector.files.map((file) => file.name)).toEqual(['inspector.js', 'inspector.css'])
  expect(inspector.gzipped, `the inspector is ${inspector.gzipped} B gzipped; see npm run size`).toBeLessThan(INSPECTOR_GZIP_BUDGET)
})
