/**
 * `npm run size`: what a browser app loads from multi-area-mock. Bundles a tiny
 * app that imports `multi-area-mock/browser` (the built package, as an app
 * would) with esbuild, minified for the browser, with `msw` left out (the app
 * has it anyway), and prints the minified and gzipped sizes and the biggest
 * contributors. `--json` prints `{ minified, gzipped, packages }` instead.
 */
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
const report = {
  minified: code.length,
  gzipped: gzipSync(code, { level: 9 }).length,
  packages: Object.fromEntries(Object.entries(packages).sort(([, a], [, b]) => b - a)),
  files: Object.keys(inputs),
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
}
