#!/usr/bin/env node
// The CLI is one bundled file (dist/cli/): loading ~900 modules one by one took
// ~1.1 s before the first request; the bundle starts in ~0.3 s (issue #2 note).
import { readFileSync } from 'node:fs'
import { main } from '../dist/cli/multi-area-mock.js'

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
await main(process.argv, version)
