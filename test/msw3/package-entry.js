// Part of npm run test:msw3: the built package's bundled entries (dist/src/,
// scripts/bundle-entries.js) with another msw (3, or the lowest 2.12) as a
// user's project has it. msw is left out of our bundles, so `multi-area-mock`
// must run on the msw the project installed: a project with that msw (and
// Node 24 for msw 3), our handlers in its setupServer beside its own, and the
// Node entry's server. The package is copied (not linked) so that `msw`
// resolves from the project, as it would from node_modules/multi-area-mock.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const CHECK = `import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createSimulator } from 'multi-area-mock'
import { startServer } from 'multi-area-mock/node'
const { default: { version } } = await import('msw/package.json', { with: { type: 'json' } })
const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z' })
const server = setupServer(...sim.handlers, http.get('http://app.test/own', () => HttpResponse.json({ own: true })))
server.listen({ onUnhandledRequest: 'error' })
await sim.ready
const list = await fetch('http://localhost/core/users?limit=2')
const refused = await fetch('http://localhost/admin/api/v1.2/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
const own = await fetch('http://app.test/own')
server.close()
const running = await startServer({ port: 0, host: '127.0.0.1', scenario: 'empty' })
const served = await fetch(running.url + '/core/users')
await running.close()
console.log(JSON.stringify({ msw: version, list: [list.status, (await list.json()).length], refused: [refused.status, (await refused.json()).error], own: (await own.json()).own, served: served.status }))
`
/** The line printed by a passing check on msw `msw`. */
const expected = (msw) => JSON.stringify({ msw, list: [200, 2], refused: [400, 'validation_failed'], own: true, served: 200 })

/**
 * Runs the check with `node` in a project of `prefix`'s packages (.ci/node24,
 * .ci/msw-lowest), which must hold msw `msw` (the exact version); throws when it fails.
 *
 * @example
 * checkPackageEntry({ root, prefix, node: node24, out, msw: '3.0.5' })
 */
export function checkPackageEntry({ root, prefix, node, out, msw }) {
  const project = join(out, 'consumer')
  const own = join(project, 'node_modules', 'multi-area-mock')
  rmSync(project, { recursive: true, force: true })
  mkdirSync(own, { recursive: true })
  cpSync(join(root, 'package.json'), join(own, 'package.json'))
  cpSync(join(root, 'dist', 'src'), join(own, 'dist', 'src'), { recursive: true })
  for (const name of readdirSync(join(prefix, 'node_modules'))) {
    if (name.startsWith('.') || existsSync(join(project, 'node_modules', name))) continue
    symlinkSync(join(prefix, 'node_modules', name), join(project, 'node_modules', name), 'dir')
  }
  writeFileSync(join(project, 'package.json'), '{ "type": "module", "private": true }\n')
  writeFileSync(join(project, 'check.js'), CHECK)
  const result = spawnSync(node, ['check.js'], { cwd: project, encoding: 'utf8' })
  const line = result.stdout.trim().split('\n').at(-1)
  if (result.status !== 0 || line !== expected(msw)) {
    throw new Error(`the bundled package entry with msw ${msw}: expected ${expected(msw)}, got ${line ?? ''} (exit ${result.status})\n${result.stderr.slice(0, 2000)}`)
  }
  console.log(`test:msw3: the built package's entries run on the project's msw ${msw} (${line})`)
}
