// @ts-check
// The replicas bench's report: the medians of every run as a table, then issue 33's targets with their verdicts.

import { fmt, log, markdownTable, targetLines } from './lib/format.js'
import { median } from './lib/median.js'

/**
 * @typedef {import('./lib/wrk.js').LoadFigures} LoadFigures
 * @typedef {import('./replicas.js').Run} Run
 * @typedef {import('./replicas.js').Runs} Runs
 * @typedef {import('./replica-join.js').Join} Join
 */

// The runs the targets compare, by label.
export const [R, R2, W, S] = ['read, one process', 'read, two replicas at once', 'write, one process', 'write, one replica of two']
export const [W1, S1, OTHER] = ['write, 1 connection, one process', 'write, 1 connection, one replica of two', 'write, one process, other build']
/** The replicas' reads floor: two processes in memory, no store, driven at once as the two replicas are (the machine's cores shared alike). */
export const R2F = 'read, two processes at once, no store'

/**
 * The medians of every run, then the targets with verdicts (and the figures given for information).
 *
 * @example
 * printTables(plan, runs, joins, { connections: 50, compare: undefined })
 */
export function printTables(
  /** @type {Run[]} */ plan,
  /** @type {Runs} */ runs,
  /** @type {Join[]} */ joins,
  /** @type {{ connections: number, compare: string | undefined }} */ config,
) {
  const of = (/** @type {string} */ label, i = 0) => runs[label].figures.map((round) => round[i])
  const m = (/** @type {string} */ label, /** @type {'rps' | 'p50' | 'p99'} */ field, i = 0) => median(of(label, i).map((result) => result[field]))
  /** The median over the rounds of a figure of `a`'s replica `i` against the same round's `b`. */
  const paired = (/** @type {string} */ a, /** @type {string} */ b, /** @type {(x: LoadFigures, y: LoadFigures) => number} */ how, i = 0) =>
    median(of(a, i).map((result, round) => how(result, of(b)[round])))
  const ratio = (/** @type {LoadFigures} */ a, /** @type {LoadFigures} */ b) => a.rps / b.rps
  /** The median over the rounds of two loads' req/s added up (what the two cores served in all). */
  const both = (/** @type {string} */ label) => median(runs[label].figures.map((round) => round[0].rps + round[1].rps))
  const body = plan.flatMap((run) =>
    Array.from({ length: run.drive }, (_, i) => {
      const perRound = of(run.label, i).map((result) => fmt(result.rps, 0))
      const name = run.drive > 1 ? `${run.label}, ${run.kind === 'twin' ? 'process' : 'replica'} ${i + 1}` : run.label
      return [name, fmt(m(run.label, 'rps', i), 0), fmt(m(run.label, 'p50', i), 2), fmt(m(run.label, 'p99', i), 2), fmt(median(runs[run.label].cpu), 0), perRound.join(', ')]
    }),
  )
  log('')
  for (const line of markdownTable(['run', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/request, all processes', 'req/s per round'], body)) log(line)
  const added = (/** @type {string} */ store, /** @type {string} */ memory) => paired(store, memory, (a, b) => a.p50 - b.p50)
  const p50s = (/** @type {string} */ to, /** @type {string} */ from) => `p50 ${fmt(m(from, 'p50'), 2)} → ${fmt(m(to, 'p50'), 2)} ms`
  const x = (/** @type {number} */ value) => `${fmt(value, 2)}×`
  const row = (/** @type {string} */ target, /** @type {string} */ limit, /** @type {string} */ measured, /** @type {boolean | null} */ met) => ({ target, limit, measured, met })
  const [added1, addedC, file, join] = [added(S1, W1), added(S, W), paired('write, --state-file', W, ratio), median(joins.map((j) => j.healthMs))]
  const agree = joins.every((j) => j.agree)
  const list = (/** @type {(j: Join) => string | number} */ pick) => joins.map(pick).join(', ')
  const rows = [
    row('store write p50 vs in-memory, 1 connection', '≤ +1 ms', `+${fmt(added1, 2)} ms (${p50s(S1, W1)})`, added1 <= 1),
    row(`store write p50 vs in-memory, -c${config.connections}`, '≤ +1 ms', `+${fmt(addedC, 2)} ms (${p50s(S, W)})`, null),
    ...[0, 1].map((i) => paired(R2, R, ratio, i)).map((v, i) => row(`replica ${i + 1}'s reads, both driven at once, vs one process`, '≥ 0.5×', x(v), v >= 0.5)),
    ...[0, 1].map((i) => row(`floor: process ${i + 1} of two without a store, both driven at once, vs one process`, '', x(paired(R2F, R, ratio, i)), null)),
    ...[0, 1].map((i) => row(`replica ${i + 1}'s reads vs that floor (the same cores, no store)`, '', x(paired(R2, R2F, ratio, i)), null)),
    row("both replicas' reads together vs the two processes without a store together", '', x(both(R2) / both(R2F)), null),
    ...[0, 1].map((i) => row(`replica ${i + 1}'s writes, both driven at once, vs one process`, '', x(paired('write, two replicas at once', W, ratio, i)), null)),
    row('store writes, one replica of two, vs one process', '', x(paired(S, W, ratio)), null),
    row(`join after ${list((j) => j.commands)} commands: spawn to health 200`, '≤ 3 s', `${fmt(join / 1000, 2)} s (${list((j) => fmt(j.healthMs / 1000, 2))})`, join <= 3000),
    row(
      'the joined replica agrees (`GET /__mock/state`)',
      'same bytes',
      list((j) => (j.agree ? 'same' : 'DIFFERENT')),
      agree,
    ),
    row('`--state-file` writes vs in-memory writes', '≥ 0.5×', `${x(file)} (${p50s('write, --state-file', W)})`, file >= 0.5),
    ...(config.compare ? [row("this build's in-memory writes vs the other build's", '', `${x(paired(W, OTHER, ratio))} (${p50s(W, OTHER)})`, null)] : []),
  ]
  log('')
  for (const line of targetLines(rows)) log(line)
  if (!config.compare) log("\nThe command log's own cost on in-memory writes needs another build: BENCH_COMPARE=<its bin/multi-area-mock.js> (bench/README.md).")
}
