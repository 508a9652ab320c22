// @ts-check
// `npm run size`: what a browser app loads from multi-area-mock, minified and gzipped, and the inspector page's own code.

/**
 * `npm run size`: what a browser app loads from multi-area-mock. Bundles a tiny
 * app that imports `multi-area-mock/browser` (the built package, as an app
 * would) with esbuild, minified for the browser, code splitting on (as an
 * app's bundler does with a dynamic `import()`), with `msw` left out (the app
 * has it anyway), and prints the minified and gzipped sizes (each file
 * gzipped on its own, as a server sends them): in all, and the part the page
 * loads before msw's worker starts (the entry; the simulator is a chunk loaded
 * meanwhile); then the biggest contributors (our bundled files split into the
 * sources they hold, see sourceInputs). Then the inspector page's own code as
 * the server sends it (dist/inspector/: script and style, Preact included).
 * `--json` prints `{ minified, gzipped, initial, packages, files, initialFiles, inspector }` instead.
 */
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { setting } from './switches.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const APP = `import { startBrowserSimulator } from 'multi-area-mock/browser'
await startBrowserSimulator({ seed: 1, scenario: 'default', persist: 'session' })
`

const result = await build({
  stdin: { contents: APP, resolveDir: root, sourcefile: 'app.js' },
  bundle: true,
  minify: true,
  splitting: true,
  outdir: join(root, 'size-out'),
  entryNames: 'app',
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  external: ['msw', 'msw/*'],
  write: false,
  metafile: true,
  logLevel: 'warning',
})
const outputs = result.metafile.outputs
/** Output path (as the metafile names it) → its bytes. */
const contents = new Map(result.outputFiles.map((file) => [file.path.slice(root.length + 1), file.contents]))
const entry = /** @type {string} */ (Object.keys(outputs).find((path) => outputs[path].entryPoint !== undefined))
/** The entry and what it imports statically: what the page loads before the simulator's chunk. */
const initialOutputs = new Set([entry])
for (const path of initialOutputs)
  for (const { path: imported, kind } of outputs[path].imports) if (kind === 'import-statement' && !imported.startsWith('msw')) initialOutputs.add(imported)
/**
 * Minified and gzipped bytes of some outputs.
 *
 * @param {string[]} paths
 */
function sizeOf(paths) {
  const files = paths.map((path) => /** @type {Uint8Array} */ (contents.get(path)))
  return { minified: files.reduce((sum, file) => sum + file.length, 0), gzipped: files.reduce((sum, file) => sum + gzipSync(file, { level: 9 }).length, 0) }
}
/** @param {string[]} paths */
const inputsOf = (paths) => {
  /** @type {Record<string, { bytesInOutput: number }>} */
  const merged = {}
  for (const path of paths)
    for (const [file, { bytesInOutput }] of Object.entries(outputs[path].inputs)) merged[file] = { bytesInOutput: (merged[file]?.bytesInOutput ?? 0) + bytesInOutput }
  return sourceInputs(merged)
}
const inputs = inputsOf(Object.keys(outputs))
/**
 * Minified bytes per package (`multi-area-mock` for our own code and JSON).
 *
 * @type {Record<string, number>}
 */
const packages = {}
for (const [file, { bytesInOutput }] of Object.entries(inputs)) {
  const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? 'multi-area-mock'
  packages[name] = (packages[name] ?? 0) + bytesInOutput
}

/**
 * The package's entries are bundles (dist/src/, scripts/bundle-entries.js), so
 * the app's bundle sees our files, not the sources in them. Each of our files
 * is split into the sources it holds with the build's own metafile
 * (dist/bundle-meta.json): its minified bytes in the app shared out in
 * proportion to each source's bytes in our build. Other inputs stay as they are.
 *
 * @param {Record<string, { bytesInOutput: number }>} appInputs
 */
function sourceInputs(appInputs) {
  /** @type {Record<string, { inputs: Record<string, { bytesInOutput: number }> }>} */
  const built = JSON.parse(readFileSync(join(root, 'dist', 'bundle-meta.json'), 'utf8')).outputs
  /** @type {Record<string, { bytesInOutput: number }>} */
  const split = {}
  for (const [file, { bytesInOutput }] of Object.entries(appInputs)) {
    const ours = built[file.replace(/^.*?(dist\/src\/)/, '$1')]
    if (!ours) {
      split[file] = { bytesInOutput: (split[file]?.bytesInOutput ?? 0) + bytesInOutput }
      continue
    }
    const total = Object.values(ours.inputs).reduce((sum, input) => sum + input.bytesInOutput, 0)
    for (const [source, input] of Object.entries(ours.inputs)) {
      if (input.bytesInOutput === 0) continue
      const share = total ? Math.round((bytesInOutput * input.bytesInOutput) / total) : 0
      split[source] = { bytesInOutput: (split[source]?.bytesInOutput ?? 0) + share }
    }
  }
  return split
}
/** The inspector's files, as built by `npm run bundle-inspector` (part of `npm run build`). */
const inspectorFiles = ['inspector.js', 'inspector.css'].map((name) => {
  const bytes = readFileSync(join(root, 'dist', 'inspector', name))
  return { name, minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length }
})
const report = {
  ...sizeOf(Object.keys(outputs)),
  initial: sizeOf([...initialOutputs]),
  packages: Object.fromEntries(Object.entries(packages).sort(([, a], [, b]) => b - a)),
  files: Object.keys(inputs),
  initialFiles: Object.keys(inputsOf([...initialOutputs])),
  inspector: {
    minified: inspectorFiles.reduce((sum, file) => sum + file.minified, 0),
    gzipped: inspectorFiles.reduce((sum, file) => sum + file.gzipped, 0),
    files: inspectorFiles,
  },
}

if (setting('--json')) {
  console.log(JSON.stringify(report))
} else {
  const kB = (/** @type {number} */ bytes) => `${(bytes / 1000).toFixed(1)} kB`.padStart(9)
  console.log('multi-area-mock/browser as an app loads it (esbuild, minified, code splitting, platform browser, msw excluded; each file gzipped)')
  console.log(`  in all:                         minified ${kB(report.minified)}, gzipped ${kB(report.gzipped)}`)
  console.log(`  before msw's worker starts:     minified ${kB(report.initial.minified)}, gzipped ${kB(report.initial.gzipped)}`)
  console.log(`  the simulator's chunk, meanwhile: minified ${kB(report.minified - report.initial.minified)}, gzipped ${kB(report.gzipped - report.initial.gzipped)}`)
  console.log('  minified, by package:')
  for (const [name, bytes] of Object.entries(report.packages)) if (bytes >= 1000) console.log(`    ${kB(bytes)}  ${name}`)
  console.log('The inspector page (/__mock/ui) as the server sends it (dist/inspector/, minified, Preact included)')
  for (const file of report.inspector.files) console.log(`  ${file.name.padEnd(14)} minified ${kB(file.minified)}, gzipped ${kB(file.gzipped)}`)
  console.log(`  in all          minified ${kB(report.inspector.minified)}, gzipped ${kB(report.inspector.gzipped)}`)
}
