// @ts-check
// Import time: what a test file pays to import multi-area-mock beyond msw's own import, in fresh processes.

/**
 * What a test file pays to import us (issue 25: at most 0.3 s beyond msw's own
 * import). Vitest isolates test files, so every file pays it once.
 *
 * In fresh child processes, alternating, each of
 *   (a) `import('msw')` + `import('msw/node')`, and
 *   (b) the same plus `import('multi-area-mock')`, the built package's entry as
 *       a user's project resolves it (the package's own name, through its
 *       "exports"; `npm run build` first),
 * timed inside the child from before the first import to after the last (so
 * Node's own start-up is left out of both). The row is the median of (b) minus
 * the median of (a), wall clock; CPU time (user + system, all threads) beside
 * it. One more child, not timed, counts the files each loads (ES modules seen
 * by a loader hook, plus CommonJS files in require's cache).
 *
 *   node bench/import-time.js                 # prints the rows as a table
 *   BENCH_IMPORT_RUNS=30 node bench/import-time.js
 *
 * @example
 * const rows = await measureImportTime({ runs: 15 })
 * // [{ target: 'import multi-area-mock, beyond msw + msw/node', limit: '≤ 300 ms', measured: '61 ms (…)', met: true }]
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { log, targetLines } from './lib/format.js'
import { median } from './lib/median.js'
import { setting } from './switches.js'

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const LIMIT_MS = 300
const MSW = ['msw', 'msw/node']
const OURS = [...MSW, 'multi-area-mock']

/**
 * The child: imports `specifiers` in order and prints how long that took.
 *
 * @param {string[]} specifiers
 */
function timingScript(specifiers) {
  return `const cpu = process.cpuUsage(); const t0 = performance.now()
${specifiers.map((specifier) => `await import(${JSON.stringify(specifier)})`).join('\n')}
const wall = performance.now() - t0; const used = process.cpuUsage(cpu)
console.log(JSON.stringify({ wall, cpu: (used.user + used.system) / 1000 }))`
}

/**
 * The child that counts files: a loader hook reports every file: URL it loads back over a port.
 *
 * @param {string[]} specifiers
 */
function countingScript(specifiers) {
  const hooks = `let port; export function initialize(data) { port = data.port }
export async function load(url, context, next) { if (url.startsWith('file:')) port.postMessage(url); return next(url, context) }`
  return `import { register, createRequire } from 'node:module'
import { MessageChannel } from 'node:worker_threads'
import { fileURLToPath } from 'node:url'
const files = new Set(); const { port1, port2 } = new MessageChannel()
port1.on('message', (url) => files.add(fileURLToPath(url))); port1.unref()
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}), { data: { port: port2 }, transferList: [port2] })
${specifiers.map((specifier) => `await import(${JSON.stringify(specifier)})`).join('\n')}
await new Promise((resolve) => setTimeout(resolve, 50))
for (const file of Object.keys(createRequire(import.meta.url).cache)) files.add(file)
console.log(JSON.stringify({ files: files.size }))`
}

/**
 * Runs `script` as an ES module in a fresh node; resolves to its last line as JSON.
 *
 * @param {string} script
 */
async function child(script) {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, maxBuffer: 1024 * 1024 })
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '')
}

/**
 * Measures the import of the package entry beyond msw's; resolves to bench rows.
 *
 * @example
 * const [row] = await measureImportTime({ runs: 10 })
 * @param {{ runs?: number, warmup?: number }} [options]
 * @returns {Promise<import('./lib/format.js').TargetRow[]>}
 */
export async function measureImportTime({ runs = setting('BENCH_IMPORT_RUNS'), warmup = 2 } = {}) {
  if (runs < 10) throw new Error('measureImportTime: at least 10 runs of each')
  /** @type {{ wall: number[], cpu: number[] }} */
  const base = { wall: [], cpu: [] }
  /** @type {{ wall: number[], cpu: number[] }} */
  const ours = { wall: [], cpu: [] }
  for (let i = 0; i < warmup + runs; i++) {
    // Alternating, and the order flips every round, so drift in load hits both alike.
    /** @type {Array<[string[], { wall: number[], cpu: number[] }]>} */
    const order =
      i % 2
        ? [
            [MSW, base],
            [OURS, ours],
          ]
        : [
            [OURS, ours],
            [MSW, base],
          ]
    for (const [specifiers, into] of order) {
      const { wall, cpu } = await child(timingScript(specifiers))
      if (i < warmup) continue
      into.wall.push(wall)
      into.cpu.push(cpu)
    }
  }
  const [mswFiles, ourFiles] = [await child(countingScript(MSW)), await child(countingScript(OURS))]
  const beyond = median(ours.wall) - median(base.wall)
  const cpuBeyond = median(ours.cpu) - median(base.cpu)
  const ms = (/** @type {number} */ value) => `${Math.round(value)} ms`
  return [
    {
      target: 'import multi-area-mock, beyond msw + msw/node',
      limit: `≤ ${LIMIT_MS} ms`,
      measured:
        `${ms(beyond)} (median of ${runs} fresh processes each: ${ms(median(ours.wall))} vs msw alone ${ms(median(base.wall))}; ` +
        `CPU ${ms(cpuBeyond)} beyond; files loaded ${ourFiles.files} vs ${mswFiles.files})`,
      met: beyond <= LIMIT_MS,
    },
  ]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) for (const line of targetLines(await measureImportTime())) log(line)
