// `npm run build` step after tsc (declarations only): the package's public
// entries (package.json "exports") as ES module bundles in dist/src/, one
// esbuild build with code splitting, so two entries share one copy of what
// they have in common (one ApiError class, one createSimulator) in
// dist/src/chunks/. Why, and what stays external: docs/internals.md
// ("Bundled entries").
import { readdirSync, rmSync, writeFileSync } from 'node:fs'
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
