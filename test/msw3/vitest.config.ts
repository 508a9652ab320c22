import { isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { mswEntry } from './msw-entry.js'

/**
 * The contract suites again with another msw (npm run test:msw3, part of npm
 * test): in-process through that msw's setupServer, and over HTTP against a CLI
 * bundled with it. test/msw3/run.js runs this once per line, naming the line's
 * folder in MULTI_AREA_MOCK_TEST_MSW_PREFIX (.ci/node24: msw 3 on Node 24;
 * .ci/msw-lowest: msw 2.12.0), each with its own lockfile so the main one
 * stays on the newest msw 2; every import of `msw` is pointed there.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const folder = process.env.MULTI_AREA_MOCK_TEST_MSW_PREFIX ?? '.ci/node24'
const prefix = isAbsolute(folder) ? folder : join(root, folder)

export default defineConfig({
  root,
  resolve: {
    alias: [
      { find: /^msw$/, replacement: mswEntry(prefix) },
      { find: /^msw\/node$/, replacement: mswEntry(prefix, './node') },
    ],
  },
  test: {
    include: [
      'test/msw3/versions.check.ts',
      'src/areas/*/{admin,core,quantum,general,ledger}.test.ts',
      'src/simulator/control/control.test.ts',
      'src/simulator/pipeline/msw-handler.test.ts',
      'src/simulator/pipeline/simulator-handler.test.ts',
      'test/areas-http.test.ts',
      'test/control-http.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
