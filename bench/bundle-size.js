/**
 * `npm run size`: what a browser app loads from multi-area-mock. Bundles a tiny
 * app that imports `multi-area-mock/browser` (the built package, as an app
 * would) with esbuild, minified for the browser, with `msw` left out (the app
 * has it anyway), and prints the minified and gzipped sizes and the biggest
 * contributors. Then the inspector page's own code as the server sends it
 * (dist/inspector/: script and style, Preact included). `--json` prints
 * `{ minified, gzipped, packages, files, inspector }` instead.
 */
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const APP = `import { startBrowserSimulator } from 'multi-area-mock/browser'
await startBrowserSimulator({ seed: 1, scenario: 'default', persist: 'session' })
`

const result = await build({
  stdin: { contents: APP, resolveDir: root, sourcefile: 'app.js' },
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  external: ['msw', 'msw/*'],
  write: false,
  metafile: true,
  logLevel: 'warning',
})
const code = result.outputFiles[0].contents
const inputs = Object.values(result.metafile.outputs)[0].inputs
/** Minified bytes per package (`multi-area-mock` for our own code and JSON). */
const packages = {}
for (const [file, { bytesInOutput }] of Object.entries(inputs)) {
  const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? 'multi-area-mock'
  packages[name] = (packages[name] ?? 0) + bytesInOutput
}
/** The inspector's files, as built by `npm run bundle-inspector` (part of `npm run build`). */
const inspectorFiles = ['inspector.js', 'inspector.css'].map((name) => {
  const bytes = readFileSync(join(root, 'dist', 'inspector', name))
  return { name, minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length }
})
const report = {
  minified: code.length,
  gzipped: gzipSync(code, { level: 9 }).length,
  packages: Object.fromEntries(Object.entries(packages).sort(([, a], [, b]) => b - a)),
  files: Object.keys(inputs),
  inspector: {
    minified: inspectorFiles.reduce((sum, file) => sum + file.minified, 0),
    gzipped: inspectorFiles.reduce((sum, file) => sum + file.gzipped, 0),
    files: inspectorFiles,
  },
}

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(report))
} else {
  const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`.padStart(9)
  console.log('multi-area-mock/browser as an app loads it (esbuild, minified, platform browser, msw excluded)')
  console.log(`  minified ${kB(report.minified)}`)
  console.log(`  gzipped  ${kB(report.gzipped)}`)
  console.log('  minified, by package:')
  for (const [name, bytes] of Object.entries(report.packages)) if (bytes >= 1000) console.log(`    ${kB(bytes)}  ${name}`)
  console.log('The inspector page (/__mock/ui) as the server sends it (dist/inspector/, minified, Preact included)')
  for (const file of report.inspector.files) console.log(`  ${file.name.padEnd(14)} minified ${kB(file.minified)}, gzipped ${kB(file.gzipped)}`)
  console.log(`  in all          minified ${kB(report.inspector.minified)}, gzipped ${kB(report.inspector.gzipped)}`)
}
