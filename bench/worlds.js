// @ts-check
// World create + delete (`npm run bench:worlds`, or `npm run bench -- --worlds`): what the Playwright fixture costs each test before and after it runs.
//   - in-process: `sim.worlds.create()` (until the world is seeded) and `sim.worlds.delete(id)`;
//   - over HTTP: `POST /__mock/worlds` and `DELETE /__mock/worlds/{id}` against the
//     CLI server (a child process), one request at a time on a kept-alive connection,
//     as the fixture sends them.
// For bench/scenarios.js's WORLD_SCENARIOS: the default scenario (the target: under 5 ms each) and the empty one.
// BENCH_WORLDS pairs per row, after BENCH_WORLDS_WARMUP unmeasured ones; medians and
// p95. Exits non-zero when any call is refused.

import { createSimulator } from '../dist/src/index.js'
import { log, markdownTable } from './lib/format.js'
import { median } from './lib/median.js'
import { loadAverage } from './lib/proc-stats.js'
import { stopChild } from './lib/processes.js'
import { startSimulator } from './lib/servers.js'
import { WORLD_SCENARIOS } from './scenarios.js'
import { setting } from './switches.js'

const CLOCK = '2026-01-01T00:00:00Z'
/** The target for the default scenario, per create and per delete. */
const TARGET_MS = 5

/** @typedef {{ way: string, scenario: string, create: number[], delete: number[] }} WorldTimes */

/**
 * Runs the world figures; resolves to the exit code.
 *
 * @example
 * process.exitCode = await runWorlds()
 */
export async function runWorlds() {
  log(`world create + delete: ${setting('BENCH_WORLDS')} pairs per row after ${setting('BENCH_WORLDS_WARMUP')} unmeasured, one at a time; load average ${loadAverage()}`)
  const rows = []
  for (const scenario of WORLD_SCENARIOS) rows.push(await inProcess(scenario))
  const server = await startWorldsServer()
  for (const scenario of WORLD_SCENARIOS) rows.push(await overHttp(server.url, scenario))
  await stopChild(server)

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
  for (const line of markdownTable(header, body, 2)) log(line)
  log(`load average after: ${loadAverage()}`)
  return 0
}

/**
 * The CLI server the HTTP rows run against: room for the worlds they create.
 *
 * @returns {Promise<import('./lib/processes.js').Server>}
 */
export function startWorldsServer() {
  return startSimulator(['--max-worlds', '64'])
}

/**
 * `count` in-process create + delete pairs after `warmup` (also used by bench/test-suite.js).
 *
 * @param {string} scenario
 * @param {number} [count]
 * @param {number} [warmup]
 * @returns {Promise<WorldTimes>}
 */
export async function inProcess(scenario, count = setting('BENCH_WORLDS'), warmup = setting('BENCH_WORLDS_WARMUP')) {
  const sim = createSimulator({ seed: 1, clock: CLOCK, scenario, worlds: { max: 4 } })
  await sim.ready
  const create = []
  const remove = []
  for (let i = 0; i < warmup + count; i++) {
    const started = performance.now()
    const world = await sim.worlds.create({ scenario })
    const created = performance.now()
    if (!world.worldId || !sim.worlds.delete(world.worldId)) throw new Error(`in-process: world ${world.worldId} was not there to delete`)
    const deleted = performance.now()
    if (i >= warmup) {
      create.push(created - started)
      remove.push(deleted - created)
    }
  }
  return { way: 'in-process', scenario, create, delete: remove }
}

/**
 * The same over HTTP against a running server at `url`.
 *
 * @param {string} url
 * @param {string} scenario
 * @param {number} [count]
 * @param {number} [warmup]
 * @returns {Promise<WorldTimes>}
 */
export async function overHttp(url, scenario, count = setting('BENCH_WORLDS'), warmup = setting('BENCH_WORLDS_WARMUP')) {
  const create = []
  const remove = []
  for (let i = 0; i < warmup + count; i++) {
    const started = performance.now()
    const response = await fetch(`${url}/__mock/worlds`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scenario }) })
    const { id } = /** @type {{ id: string }} */ (await response.json())
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

/** @param {number[]} values */
function p95(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]
}

/** @param {number} value */
function ms(value) {
  return Number.isFinite(value) ? value.toFixed(2) : '-'
}
