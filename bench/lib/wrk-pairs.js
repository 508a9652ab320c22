// @ts-check
// Alternating wrk pairs of two servers on one endpoint, with the CPU time per request of the processes that matter: bench/proxy.js and bench/recording.js.

import os from 'node:os'
import { setting } from '../switches.js'
import { log } from './format.js'
import { cpuSeconds, loadAverage } from './proc-stats.js'
import { runWrk, wrkInstalled } from './wrk.js'

/**
 * @typedef {import('./wrk.js').LoadFigures & { cpu: Record<string, number> }} PairRun one side's run, with CPU seconds per request by process name
 */

/**
 * Runs `pairs` pairs of wrk runs on `endpoint`, one against each of the two
 * `targets`, the side that goes first alternating from pair to pair (the two
 * cannot share the machine at the same time); each run is warmed up first and
 * reports the CPU seconds per request of every process in `processes`. Runs
 * with errors, timeouts or non-2xx answers are named in `problems`.
 *
 * @example
 * const { runs, problems } = await runWrkPairs({ targets: { direct: upstream.url, proxied: proxy.url }, processes: { proxy: proxy.child.pid }, endpoint, pairs: 5, warmup: 3, duration: 10, connections: 50 })
 * @template {string} Side
 * @param {{ targets: Record<Side, string>, processes: Record<string, number | undefined>, endpoint: import("./wrk.js").WrkLoad & { name: string }, pairs: number, warmup: number, duration: number, connections: number }} options
 * @returns {Promise<{ runs: Record<Side, PairRun[]>, problems: string[] }>}
 */
export async function runWrkPairs({ targets, processes, endpoint, pairs, warmup, duration, connections }) {
  const sides = /** @type {Side[]} */ (Object.keys(targets))
  const runs = /** @type {Record<Side, PairRun[]>} */ (/** @type {unknown} */ (Object.fromEntries(sides.map((side) => [side, []]))))
  const problems = []
  const cpu = () => Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, cpuSeconds(pid) ?? NaN]))
  for (let pair = 0; pair < pairs; pair++) {
    const order = pair % 2 === 0 ? sides : [...sides].reverse()
    for (const side of order) {
      const url = targets[side]
      if (warmup > 0) await runWrk(url, endpoint, warmup, connections, endpoint.name)
      const before = cpu()
      const result = await runWrk(url, endpoint, duration, connections, endpoint.name)
      const after = cpu()
      const perRequest = Object.fromEntries(Object.keys(processes).map((name) => [name, (after[name] - before[name]) / result.total]))
      if (result.errors + result.timeouts + result.non2xx > 0)
        problems.push(`${endpoint.name} ${side}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`)
      runs[side].push({ ...result, cpu: perRequest })
    }
  }
  return { runs, problems }
}

/**
 * The pair settings (`BENCH_DURATION`, `BENCH_WARMUP`, `BENCH_CONNECTIONS`,
 * `BENCH_PAIRS`), after printing them and the machine under `title`;
 * `undefined` (said why) when wrk is not installed.
 *
 * @example
 * const settings = pairSettings('proxy overhead')
 * if (settings === undefined) return 1
 * @param {string} title
 */
export function pairSettings(title) {
  const settings = { duration: setting('BENCH_DURATION'), warmup: setting('BENCH_WARMUP'), connections: setting('BENCH_CONNECTIONS'), pairs: setting('BENCH_PAIRS') }
  if (!wrkInstalled()) {
    log(`bench: wrk is not installed (Debian/Ubuntu: apt-get install -y wrk); the ${title} pairs need it.`)
    return undefined
  }
  const { duration, warmup, connections, pairs } = settings
  log(`${title}: wrk -t1 -c${connections}, ${warmup} s warm-up + ${duration} s per side, ${pairs} pair(s) per endpoint, medians`)
  log(`node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAverage()}`)
  return settings
}
