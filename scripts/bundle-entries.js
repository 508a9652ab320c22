// `npm run build` step after tsc (declarations only): the package's public
// entries (package.json "exports") as ES module bundles in dist/src/, one
// esbuild build with code splitting, so two entries share one copy of what
// they have in common (one ApiError class, one createSimulator) in
// dist/src/chunks/. Why, and what stays external: docs/internals.md
// ("Bundled entries").
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { builtinModules } from 'node:module'
import { build } from 'esbuild'

const ENTRIES = ['index', 'node/index', 'browser/index', 'verify/index', 'playwright/index', 'vitest/index']

/**
 * Kept external: msw (a peer: handlers and setupServer must be the user's own
 * msw, 2 or 3), the optional peers (test runners the user has), and Node's
 * built-ins (only the Node entry imports them).
 */
const EXTERNAL = ['msw', 'msw/*', '@playwright/test', 'vitest', 'playwright-core', ...builtinModules, 'node:*']

// Stale JavaScript from an earlier build (old chunks, or tsc's per-file output
// before the entries were bundled) would be packed too: only declarations stay.
for (const entry of readdirSync('dist/src', { recursive: true, withFileTypes: true })) {
  if (entry.isFile() && /\.js(\.map)?$/.test(entry.name)) rmSync(join(entry.parentPath, entry.name))
}

const result = await build({
  entryPoints: ENTRIES.map((entry) => ({ in: `src/${entry}.ts`, out: entry })),
  outdir: 'dist/src',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  // Neutral: no `node` or `browser` condition, so one build serves Node,
  // browsers and users' bundlers alike (no dependency here resolves
  // differently for either); `import` and `default` conditions, module field first.
  platform: 'neutral',
  mainFields: ['module', 'main'],
  target: 'node20.19',
  external: EXTERNAL,
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
})
// What went into each file, for bench/bundle-size.js (not shipped).
writeFileSync('dist/bundle-meta.json', JSON.stringify(result.metafile))

// The bundles hold copies of our dependencies' code: their licences go with them.
const packages = new Set()
for (const input of Object.keys(result.metafile.inputs)) {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)
  if (match) packages.add(match[1])
}
const notices = [...packages].sort().map((dir) => {
  const { name, version, license } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const file = readdirSync(dir).find((entry) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(entry))
  const text = file && existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8').trim() : `License: ${license}`
  return `${name}@${version} (${license})\n\n${text}\n`
})
writeFileSync('dist/src/THIRD-PARTY-LICENSES.txt', `The bundles in this folder include code of these packages, under their licences:\n\n${notices.join(`\n${'-'.repeat(72)}\n\n`)}`)
