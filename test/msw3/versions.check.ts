import { readFileSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as msw from 'msw'
import { expect, it } from 'vitest'
import { CLI } from '../support/cli-server.js'
import { mswEntry } from './msw-entry.js'

// The line under test really is that line (not the lockfile's msw 2 again): the
// msw its folder pins, on the Node it pins (if any), here and in the CLI under test.
const root = fileURLToPath(new URL('../..', import.meta.url))
const folder = process.env.MULTI_AREA_MOCK_TEST_MSW_PREFIX ?? '.ci/node24'
const prefix = isAbsolute(folder) ? folder : join(root, folder)
const pinned = (JSON.parse(readFileSync(join(prefix, 'package.json'), 'utf8')) as { dependencies: { msw: string; node?: string } }).dependencies

it(`runs on msw ${pinned.msw}${pinned.node ? ` and Node ${pinned.node}` : ''}, in-process and in the CLI under test`, async () => {
  expect((JSON.parse(readFileSync(join(prefix, 'node_modules/msw/package.json'), 'utf8')) as { version: string }).version).toBe(pinned.msw)
  if (pinned.node !== undefined) expect(process.versions.node).toBe(pinned.node)
  // `import 'msw'` here (and so in the suites) is that copy.
  expect(await import(mswEntry(prefix))).toBe(msw)
  expect(CLI).toContain(join('test-output', process.env.MULTI_AREA_MOCK_TEST_MSW_LINE ?? 'msw3'))
})
