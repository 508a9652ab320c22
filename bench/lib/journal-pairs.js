// @ts-check
// The journal's cost in pairs: a fresh `fast` and a fresh `nojournal` server under load at the same time, so both see the same machine in the same seconds.

import { fmt, log } from './format.js'
import { cpuPerResponse, load } from './load.js'
import { assertAlive, stopChild } from './processes.js'
import { check } from './run-checks.js'
import { stderrProblem } from './servers.js'

/**
 * @typedef {import('./load.js').LoadResult} LoadResult
 * @typedef {{ on: LoadResult, off: LoadResult }} Pair
 */

/**
 * Pairs per row (BENCH_JOURNAL_PAIRS): two wrk processes of half the connections
 * each, warm-up then measured run, the wrk that starts first alternating. Run
 * one after the other, the same two servers' req/s moved by ±20 % from minute
 * to minute on this 2-core machine (the bare baseline itself: 28k–48k req/s in
 * one run), more than the 10 % budget being measured; side by side, both get
 * the same share of the same machine, and what differs is their own cost per
 * request. Rows that read pre-signed bodies (eip191) are left out: each body
 * can be accepted once per server. Undefined when pairs are off or cannot run.
 *
 * @param {import('./rounds.js').Plan} plan
 * @param {import('../scenarios.js').Row[]} rows
 * @param {string[]} problems
 * @returns {Promise<Record<string, Pair[]> | undefined>}
 */
export async function journalPairs(plan, rows, problems) {
  const { journalPairs: count, warmup, duration } = plan
  if (count === 0 || !plan.modes.includes('fast') || !plan.modes.includes('nojournal') || plan.driver !== 'wrk') return undefined
  const half = Math.max(1, Math.floor(plan.connections / 2))
  const paired = rows.filter((row) => !row.signedFile)
  /** @type {Record<string, Pair[]>} */
  const pairs = Object.fromEntries(paired.map((row) => [row.key, []]))
  log(`\njournal cost, side by side: fast and fast --journal-size 0 under load at the same time (wrk -c${half} each), ${count} pair(s) per endpoint`)
  for (let pair = 0; pair < count; pair++) {
    for (const row of paired) {
      const servers = { on: await plan.start('fast', row.serverArgs), off: await plan.start('nojournal', row.serverArgs) }
      /** @type {Array<'on' | 'off'>} */
      const order = pair % 2 === 0 ? ['on', 'off'] : ['off', 'on']
      const both = async (/** @type {number} */ seconds) => {
        const results = await Promise.all(order.map((side) => load(servers[side], row, seconds, 0, half)))
        return /** @type {Pair} */ (Object.fromEntries(order.map((side, i) => [side, results[i]])))
      }
      if (warmup > 0) for (const [side, result] of Object.entries(await both(warmup))) problems.push(...check(`journal pair ${side} ${row.name} (warm-up)`, result))
      const measured = await both(duration)
      for (const side of order) {
        problems.push(...check(`journal pair ${side} ${row.name}`, measured[side]))
        assertAlive(`journal pair ${side}`, servers[side], problems)
        const stderr = stderrProblem(`journal pair ${side}`, servers[side])
        if (stderr) problems.push(stderr)
        await stopChild(servers[side])
      }
      pairs[row.key].push(measured)
      const { on, off } = measured
      log(
        `  pair ${pair + 1} ${row.name.padEnd(40)} on ${fmt(on.rps, 0).padStart(6)} req/s, off ${fmt(off.rps, 0).padStart(6)} req/s: cost ${fmt(off.rps / on.rps, 3)} (req/s), ${fmt(cpuPerResponse(on) / cpuPerResponse(off), 3)} (CPU)`,
      )
    }
  }
  return pairs
}
