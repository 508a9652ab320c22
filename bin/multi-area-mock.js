#!/usr/bin/env node
// The CLI is bundled (dist/cli/, sharing the package's chunks in dist/src/chunks/):
// loading ~900 source modules one by one took ~1.1 s before the first request.
import { readFileSync } from 'node:fs'

const bundle = new URL('../dist/cli/multi-area-mock.js', import.meta.url)
let main
try {
  ;({ main } = await import(bundle.href))
} catch (error) {
  // A clone installed with --ignore-scripts has no build: say so in one line.
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('multi-area-mock.js')) throw error
  process.stderr.write('multi-area-mock: the CLI is not built (dist/cli/ is missing); run `npm run build` in the package first\n')
  process.exit(1)
}
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
await main(process.argv, version)
