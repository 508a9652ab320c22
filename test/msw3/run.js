// npm run test:msw3 (the last step of npm test): the contract suites on Node 24
// with msw 3, in-process and over HTTP, so both lines the peer dependency claims
// (msw ^2.12 || ^3) are tested. Node 24 and msw 3 come from the npm registry
// into .ci/node24 (its own lockfile); msw 3 needs Node 22.12 or newer.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { checkPackageEntry } from './package-entry.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const prefix = join(root, '.ci/node24')
const node24 = join(prefix, 'node_modules/.bin/node')
const out = join(root, 'test-output/msw3')

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options })
  if (result.status !== 0) {
    console.error(`test:msw3: ${[command, ...args].join(' ').slice(0, 200)} failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`})`)
    process.exit(1)
  }
}

// Installed once, again whenever the lockfile changes.
const installed = join(prefix, 'node_modules/.package-lock.json')
if (!existsSync(node24) || !existsSync(installed) || statSync(installed).mtimeMs < statSync(join(prefix, 'package-lock.json')).mtimeMs) {
  run('npm', ['ci', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error'])
}

// The CLI as the package builds it (package.json "bundle-cli"), but with msw 3 inside.
mkdirSync(out, { recursive: true })
run(join(root, 'node_modules/.bin/esbuild'), [
  'src/cli/main.ts',
  '--bundle',
  '--platform=node',
  '--format=esm',
  '--target=node22',
  '--log-level=warning',
  `--alias:msw=${join(prefix, 'node_modules/msw')}`,
  `--outfile=${join(out, 'multi-area-mock.js')}`,
  "--banner:js=import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
])
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
writeFileSync(join(out, 'bin.js'), `import { main } from './multi-area-mock.js'\nawait main(process.argv, ${JSON.stringify(version)})\n`)

console.log(`test:msw3: contract suites on Node ${spawnSync(node24, ['--version'], { encoding: 'utf8' }).stdout.trim()} with msw 3`)
run(node24, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/msw3/vitest.config.ts'], {
  env: { ...process.env, MULTI_AREA_MOCK_TEST_CLI: join(out, 'bin.js'), MULTI_AREA_MOCK_TEST_DISPATCH: 'msw' },
})

// The package as built (bundled entries, msw left out) in a project with msw 3.
checkPackageEntry({ root, prefix, node: node24, out })
