// World create + delete (`npm run bench -- --worlds`, or `npm run bench:worlds`):
// what the Playwright fixture costs each test before and after it runs.
//   - in-process: `sim.worlds.create()` (until the world is seeded) and `sim.worlds.delete(id)`;
//   - over HTTP: `POST /__mock/worlds` and `DELETE /__mock/worlds/{id}` against the
//     CLI server (a child process), one request at a time on a kept-alive connection,
//     as the fixture sends them.
// For the default scenario (the target: under 5 ms each) and the empty one.
// BENCH_WORLDS (default 300) pairs per row, after BENCH_WORLDS_WARMUP (default 30)
// unmeasured ones; medians and p95. Exits non-zero when any call is refused.
// Called by bench/run.js, which owns child processes and logging.

import { createSimulator } from '../dist/src/index.js'
import { median } from './median.js'

const COUNT = Number(process.env.BENCH_WORLDS || 300)
const WARMUP = Number(process.env.BENCH_WORLDS_WARMUP ?? 30)
const CLOCK = '2026-01-01T00:00:00Z'
const SCENARIOS = ['default', 'empty']
/** The issue's target for the default scenario, per create and per delete. */
const TARGET_MS = 5

/**
 * Runs the world figures; resolves to the exit code.
 *
 * @example
 * process.exitCode = await runWorlds({ cli, startChild, log, loadAverage })
 */
export async function runWorlds({ cli, startChild, log, loadAverage }) {
  log(`world create + delete: ${COUNT} pairs per row after ${WARMUP} unmeasured, one at a time; load average ${loadAverage()}`)
  const rows = []
  for (const scenario of SCENARIOS) rows.push(await inProcess(scenario))
  const server = await startChild(
    'simulator',
    process.execPath,
    [cli, 'serve', '--port', '0', '--host', '127.0.0.1', '--quiet', '--seed', '1', '--clock', CLOCK, '--max-worlds', '64'],
    /listening on (http:\/\/\S+)/,
  )
  for (const scenario of SCENARIOS) rows.push(await overHttp(server.url, scenario))
  server.child.kill('SIGTERM')
  await server.exited

  const header = ['way', 'scenario', 'create median ms', 'create p95 ms', 'delete median ms', 'delete p95 ms', `target < ${TARGET_MS} ms`]
  const body = rows.map((row) => [
    row.way,
    row.scenario,
    ms(median(row.create)),
    ms(p95(row.create)),
    ms(median(row.delete)),
    ms(p95(row.delete)),
    row.scenario === 'default' ? (median(row.create) < TARGET_MS && median(row.delete) < TARGET_MS ? 'met' : 'MISSED') : '',
  ])
  const widths = header.map((title, i) => Math.max(title.length, ...body.map((cells) => cells[i].length)))
  const line = (cells) => `| ${cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ')} |`
  log(line(header))
  log(`|${widths.map((w, i) => (i < 2 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`)
  for (const cells of body) log(line(cells))
  log(`load average after: ${loadAverage()}`)
  return 0
}

/** `COUNT` in-process create + delete pairs after `WARMUP` (also used by bench/test-suite.js). */
export async function inProcess(scenario, count = COUNT, warmup = WARMUP) {
  const sim = createSimulator({ seed: 1, clock: CLOCK, scenario, worlds: { max: 4 } })
  await sim.ready
  const create = []
  const remove = []
  for (let i = 0; i < warmup + count; i++) {
    const started = performance.now()
    const world = await sim.worlds.create({ scenario })
    const created = performance.now()
    if (!sim.worlds.delete(world.worldId)) throw new Error(`in-process: world ${world.worldId} was not there to delete`)
    const deleted = performance.now()
    if (i >= warmup) {
      create.push(created - started)
      remove.push(deleted - created)
    }
  }
  return { way: 'in-process', scenario, create, delete: remove }
}

/** The same over HTTP against a running server at `url`. */
export async function overHttp(url, scenario, count = COUNT, warmup = WARMUP) {
  const create = []
  const remove = []
  for (let i = 0; i < warmup + count; i++) {
    const started = performance.now()
    const response = await fetch(`${url}/__mock/worlds`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scenario }) })
    const { id } = await response.json()
    if (response.status !== 201) throw new Error(`POST /__mock/worlds answered ${response.status}`)
    const created = performance.now()
    const deleted = await fetch(`${url}/__mock/worlds/${id}`, { method: 'DELETE' })
    await deleted.arrayBuffer()
    if (deleted.status !== 204) throw new Error(`DELETE /__mock/worlds/${id} answered ${deleted.status}`)
    const done = performance.now()
    if (i >= warmup) {
      create.push(created - started)
      remove.push(done - created)
    }
  }
  return { way: 'HTTP', scenario, create, delete: remove }
}

function p95(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]
}

function ms(value) {
  return Number.isFinite(value) ? value.toFixed(2) : '-'
}
