import { readFileSync } from 'node:fs'
import * as msw from 'msw'
import { expect, it } from 'vitest'
import { CLI } from '../support/cli-server.js'

// The second line really is the second line: not Node 20 and msw 2 again.
it('runs on Node 24 with msw 3, in-process and in the CLI under test', () => {
  expect(process.versions.node).toMatch(/^24\./)
  // An export msw 3 added; msw 2 does not have it.
  expect(msw).toHaveProperty('isPassthroughResponse')
  expect(CLI).toMatch(/test-output\/msw3\//)
  expect(readFileSync(new URL('../../.ci/node24/node_modules/msw/package.json', import.meta.url), 'utf8')).toMatch(/"version": "3\./)
})
