import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/**
 * The contract suites again, on Node 24 with msw 3 (npm run test:msw3, part of
 * npm test): in-process through msw 3's setupServer, and over HTTP against a
 * CLI bundled with msw 3. msw 3 lives in .ci/node24 so the main lockfile stays
 * on msw 2; every import of `msw` is pointed there.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const msw3 = dirname(createRequire(join(root, '.ci/node24/package.json')).resolve('msw/package.json'))

export default defineConfig({
  root,
  resolve: {
    alias: [
      { find: /^msw$/, replacement: join(msw3, 'lib/core/index.js') },
      { find: /^msw\/node$/, replacement: join(msw3, 'lib/node/index.js') },
    ],
  },
  test: {
    include: [
      'test/msw3/versions.check.ts',
      'src/areas/*/{admin,core,quantum,general,ledger}.test.ts',
      'src/simulator/control.test.ts',
      'src/simulator/msw-handler.test.ts',
      'test/areas-http.test.ts',
      'test/control-http.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
