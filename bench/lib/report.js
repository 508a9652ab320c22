// @ts-check
// The tables a throughput run ends with: ratios to the bare baseline, every row on every server, the journal's cost, and each run's details.

import { fmt, log, markdownTable, pct } from './format.js'
import { cpuPerResponse } from './load.js'
import { median } from './median.js'
import { summary } from './run-checks.js'

/**
 * @typedef {import('./rounds.js').Plan} Plan
 * @typedef {import('./rounds.js').MedianRow} MedianRow
 */

/**
 * The issue's table: each server's ratio to the baseline on the three headline rows, and its GET p99.
 *
 * @param {Plan} plan
 * @param {MedianRow[]} rows
 */
export function printIssueTable(plan, rows) {
  const row = (/** @type {string} */ key) => rows.find((candidate) => candidate.endpoint.key === key)
  const list = row('list')
  const one = row('one')
  const create = row('create')
  const ratio = (/** @type {MedianRow | undefined} */ found, /** @type {string} */ label) => (found?.[label] ? fmt(found[label].rps / found.baseline.rps, 3) : '-')
  const p99 = (/** @type {string} */ label) => {
    const values = [list, one].flatMap((found) => (found?.[label] ? [found[label].p99] : []))
    return values.length === 0 ? '-' : `${fmt(Math.min(...values), 1)}–${fmt(Math.max(...values), 1)} ms`
  }
  /** @type {Record<string, string>} */
  const labels = {
    fast: 'multi-area-mock, --dispatch fast (default)',
    msw: 'multi-area-mock, --dispatch msw',
    nojournal: 'fast, journal off',
    baseline: 'bare node:http baseline',
    batched: 'bare node:http, answers ended at the end of each turn (information)',
  }
  const body = ['fast', 'msw', 'nojournal', 'baseline', 'batched']
    .filter((label) => label === 'baseline' || plan.modes.includes(label) || (label === 'batched' && list?.batched))
    .map((label) => [labels[label], ratio(list, label), ratio(one, label), ratio(create, label), p99(label)])
  log('')
  log(
    `Ratios to the bare node:http baseline (${plan.driver}, ${plan.connections} connections, ${plan.warmup} s warm-up + ${plan.duration} s, median of ${plan.rounds} round(s); the targets and their verdicts are in the last table)`,
  )
  for (const line of markdownTable(['', 'GET list (20)', 'GET one', 'POST create', 'GET p99'], body)) log(line)
  if (!list?.batched) return
  // The same ratios against a bare server with the simulator's write pattern: what is left is the simulator's own work.
  const toBatched = (/** @type {MedianRow | undefined} */ found, /** @type {string} */ label) =>
    found?.[label] && found.batched ? fmt(found[label].rps / found.batched.rps, 3) : '-'
  for (const label of ['fast', 'msw'].filter((mode) => plan.modes.includes(mode))) {
    log(`${label} against the batched bare server: list ${toBatched(list, label)}, one ${toBatched(one, label)}, create ${toBatched(create, label)}`)
  }
}

/**
 * Every row on every server: req/s and p99, and each variant's ratio to the baseline.
 *
 * @param {Plan} plan
 * @param {MedianRow[]} rows
 */
export function printTable(plan, rows) {
  const modes = plan.modes.filter((label) => label !== 'nojournal')
  const labels = [...modes, 'baseline', ...(rows[0]?.batched ? ['batched'] : [])]
  const header = ['endpoint', ...labels.flatMap((label) => [`${label} req/s`, `${label} p99 ms`]), ...modes.map((label) => `${label} ratio`)]
  const body = rows.map((row) => [
    row.endpoint.name,
    ...labels.flatMap((label) => [fmt(row[label].rps, 0), fmt(row[label].p99, 1)]),
    ...modes.map((label) => fmt(row[label].rps / row.baseline.rps, 3)),
  ])
  log('')
  log(`Every endpoint (medians of ${plan.rounds} round(s); ratio = simulator req/s / baseline req/s; fast/msw = --dispatch)`)
  for (const line of markdownTable(header, body)) log(line)
}

/**
 * What the request journal (on by default) costs per request: the fast server
 * with and without it (`--journal-size 0`), same run, same requests. A cost of
 * 1.05 means 5% more per request; the issue's budget is 1.10. Two measures:
 * the rounds above (each server alone, one after the other), and the paired
 * runs (both at once; lib/journal-pairs.js), which the budget is judged on.
 *
 * @param {Plan} plan
 * @param {MedianRow[]} rows
 * @param {Record<string, import('./journal-pairs.js').Pair[]> | undefined} pairs
 */
export function printJournalCost(plan, rows, pairs) {
  if (!plan.modes.includes('fast') || !plan.modes.includes('nojournal')) return
  const header = ['endpoint', 'journal off req/s', 'journal on req/s', 'cost (req/s)', 'off µs CPU/resp', 'on µs CPU/resp', 'cost (CPU)']
  const body = rows.map(({ endpoint, fast, nojournal }) => [
    endpoint.name,
    fmt(nojournal.rps, 0),
    fmt(fast.rps, 0),
    fmt(nojournal.rps / fast.rps, 3),
    fmt(nojournal.cpuPerResponse, 0),
    fmt(fast.cpuPerResponse, 0),
    fmt(fast.cpuPerResponse / nojournal.cpuPerResponse, 3),
  ])
  log('')
  log(
    'Request journal cost, one server at a time (fast with the default journal of 1,000 entries vs fast --journal-size 0, medians of the rounds above; cost = with / without, per request)',
  )
  for (const line of markdownTable(header, body)) log(line)
  if (!pairs) return
  const pairedRows = Object.entries(pairs).map(([key, results]) => {
    const costs = results.map(({ on, off }) => off.rps / on.rps)
    const cpuCosts = results.map(({ on, off }) => cpuPerResponse(on) / cpuPerResponse(off))
    return [
      rows.find((row) => row.endpoint.key === key)?.endpoint.name ?? key,
      fmt(median(results.map(({ off }) => off.rps)), 0),
      fmt(median(results.map(({ on }) => on.rps)), 0),
      fmt(median(costs), 3),
      fmt(median(cpuCosts), 3),
      costs.map((cost) => fmt(cost, 2)).join(', '),
      median(costs) <= 1.1 ? 'yes' : 'NO',
    ]
  })
  log('')
  log(`Request journal cost, side by side (both servers under load at the same time; medians of ${plan.journalPairs} pair(s); budget 1.10)`)
  for (const line of markdownTable(['endpoint', 'journal off req/s', 'journal on req/s', 'cost (req/s)', 'cost (CPU)', 'cost per pair (req/s)', 'within 1.10'], pairedRows))
    log(line)
}

/**
 * Per server and row: latency, counts, body size, server CPU and each round's req/s.
 *
 * @param {Plan} plan
 * @param {MedianRow[]} rows
 */
export function printDetails(plan, rows) {
  log('')
  log('Per server and endpoint (medians over the rounds): latency p50/p99/max ms; 2xx, non-2xx, errors, timeouts summed over the rounds;')
  log('  server CPU as % of one core and µs per response; req/s of each round')
  for (const row of rows) {
    for (const label of [...plan.modes, 'baseline', 'batched']) {
      const result = row[label]
      if (!result) continue
      log(
        `  ${label.padEnd(9)} ${row.endpoint.name.padEnd(36)} ${summary(result)}  latency ${fmt(result.p50, 2)}/${fmt(result.p99, 2)}/${fmt(result.max, 1)}  body ${row.endpoint.bytes} B  CPU ${pct(result.cpuShare)} (${fmt(result.cpuPerResponse, 0)} µs/resp)  rounds ${result.rounds.join(', ')}`,
      )
    }
  }
}
