// `npm run build` step after tsc (declarations only): the package's public
// entries (package.json "exports") and the CLI as ES module bundles, one
// esbuild build with code splitting, so they share one copy of what they have
// in common (one ApiError class, one createSimulator) in dist/src/chunks/:
// the entries in dist/src/, the CLI in dist/cli/multi-area-mock.js (what
// bin/multi-area-mock.js runs). Why, and what stays external: docs/internals.md
// ("Bundled entries").
//
//   node scripts/bundle-entries.js              the build the package ships
//   node scripts/bundle-entries.js --sourcemap  with source maps (*.js.map), to debug here; never packed (test/package-size.test.ts)
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'

const ENTRIES = ['index', 'node/index', 'browser/index', 'verify/index', 'playwright/index', 'vitest/index', 'testcontainers/index']

/**
 * Kept external: msw (a peer: handlers and setupServer must be the user's own
 * msw, 2 or 3; the CLI runs on it too), the optional peers (what the
 * user has: its test runners, Redis's client, Testcontainers), and Node's
 * built-ins (only the Node entry, the CLI and the Testcontainers entry import them).
 */
const EXTERNAL = ['msw', 'msw/*', '@playwright/test', 'vitest', 'playwright-core', '@redis/client', 'testcontainers', ...builtinModules, 'node:*']

/**
 * A CommonJS dependency of the CLI (commander) calls `require('node:events')`;
 * in an ES module bundle esbuild's `require` stand-in throws. Such a call gets
 * Node's own module instead (`process.getBuiltinModule`, Node 20.16+), in the
 * CLI's code only: no entry for browsers has a require of a built-in.
 */
const builtinRequire = {
  name: 'builtin-require',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) =>
      args.kind === 'require-call' && builtinModules.includes(args.path.replace(/^node:/, '')) ? { path: args.path, namespace: 'builtin-require' } : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'builtin-require' }, (args) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)})`,
      loader: 'js',
    }))
  },
}

const sourcemap = process.argv.includes('--sourcemap')

const result = await build({
  entryPoints: [...ENTRIES.map((entry) => ({ in: `src/${entry}.ts`, out: `src/${entry}` })), { in: 'src/cli/main.ts', out: 'cli/multi-area-mock' }],
  outdir: 'dist',
  chunkNames: 'src/chunks/[name]-[hash]',
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
  plugins: [builtinRequire],
  sourcemap,
  metafile: true,
  logLevel: 'warning',
})
// Stale JavaScript from an earlier build (old chunks, maps, or tsc's per-file
// output before the entries were bundled) would be packed too: only this
// build's files and the declarations stay. Removed after the build, not
// before, so the package is never without its entries while it runs.
const built = new Set(Object.keys(result.metafile.outputs).map((file) => resolve(file)))
for (const folder of ['dist/src', 'dist/cli']) {
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    const file = resolve(entry.parentPath, entry.name)
    if (entry.isFile() && /\.js(\.map)?$/.test(entry.name) && !built.has(file)) rmSync(file)
  }
}
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
writeFileSync(
  'dist/src/THIRD-PARTY-LICENSES.txt',
  `The bundles in dist/src/ and dist/cli/ include code of these packages, under their licences:\n\n${notices.join(`\n${'-'.repeat(72)}\n\n`)}`,
)
