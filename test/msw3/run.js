// npm run test:msw3 (the last step of npm test): the contract suites again on
// the other msw lines the peer dependency claims (msw ^2.12 || ^3), in-process
// and over HTTP, so its lowest and its newest release lines are both tested:
//   - msw 3 on Node 24 (.ci/node24; msw 3 needs Node 22.12 or newer);
//   - msw 2.12.0, the lowest release the range allows, on the Node that runs
//     npm test (.ci/msw-lowest).
// The main vitest run covers the lockfile's msw 2 (the newest 2.x). Each line
// comes from the npm registry into its own folder with its own lockfile, so the
// main lockfile is left alone. `node test/msw3/run.js msw-lowest` runs one line.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { checkPackageEntry } from './package-entry.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The lines: where each is installed, the Node that runs it, the target its CLI bundle is built for. */
const LINES = [
  { id: 'msw3', folder: '.ci/node24', node: (prefix) => join(prefix, 'node_modules/.bin/node'), target: 'node22' },
  { id: 'msw-lowest', folder: '.ci/msw-lowest', node: () => process.execPath, target: 'node20' },
]

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options })
  if (result.status !== 0) {
    console.error(`test:msw3: ${[command, ...args].join(' ').slice(0, 200)} failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`})`)
    process.exit(1)
  }
}

const chosen = process.argv.slice(2)
const unknown = chosen.filter((id) => !LINES.some((line) => line.id === id))
if (unknown.length > 0) {
  console.error(`test:msw3: no line ${unknown.join(', ')} (lines: ${LINES.map((line) => line.id).join(', ')})`)
  process.exit(2)
}

const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
for (const line of LINES.filter((each) => chosen.length === 0 || chosen.includes(each.id))) {
  const prefix = join(root, line.folder)
  const node = line.node(prefix)
  const out = join(root, 'test-output', line.id)
  const { msw } = JSON.parse(readFileSync(join(prefix, 'package.json'), 'utf8')).dependencies

  // Installed once, again whenever the line's lockfile changes.
  const installed = join(prefix, 'node_modules/.package-lock.json')
  if (!existsSync(node) || !existsSync(installed) || statSync(installed).mtimeMs < statSync(join(prefix, 'package-lock.json')).mtimeMs) {
    run('npm', ['ci', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error'])
  }

  // The CLI from the sources, one file with the line's msw inside (the package's own build shares msw from node_modules instead).
  mkdirSync(out, { recursive: true })
  run(join(root, 'node_modules/.bin/esbuild'), [
    'src/cli/main.ts',
    '--bundle',
    '--platform=node',
    '--format=esm',
    `--target=${line.target}`,
    '--log-level=warning',
    `--alias:msw=${join(prefix, 'node_modules/msw')}`,
    `--outfile=${join(out, 'multi-area-mock.js')}`,
    "--banner:js=import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  ])
  writeFileSync(join(out, 'bin.js'), `import { main } from './multi-area-mock.js'\nawait main(process.argv, ${JSON.stringify(version)})\n`)

  console.log(`test:msw3: contract suites on Node ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()} with msw ${msw} (${line.folder})`)
  run(node, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/msw3/vitest.config.ts'], {
    env: {
      ...process.env,
      MULTI_AREA_MOCK_TEST_CLI: join(out, 'bin.js'),
      MULTI_AREA_MOCK_TEST_DISPATCH: 'msw',
      MULTI_AREA_MOCK_TEST_MSW_PREFIX: prefix,
      MULTI_AREA_MOCK_TEST_MSW_LINE: line.id,
    },
  })

  // The package as built (bundled entries, msw left out) in a project with the line's msw.
  checkPackageEntry({ root, prefix, node, out, msw })
}
