// @ts-check
// What extra properties cost a write (`npm run bench:commands`, issue 43): the same notification sent plain and
// padded with 14 KB of extra properties (10 `password` and 1,000 `seed` keys nobody reads), as wrk pairs, on the
// default server and with `--state-file`, beside the bare node:http floor of carrying the same bodies. A command
// holds what its route read, so the padded body may cost only what reading 14 KB more costs: never key
// derivations, never a larger log line. Needs wrk; exits non-zero on any error, timeout or non-2xx answer.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fmt, log, markdownTable } from './lib/format.js'
import { median } from './lib/median.js'
import { stopAll, stopChild } from './lib/processes.js'
import { startBaseline, startSimulator } from './lib/servers.js'
import { loadAverage } from './lib/proc-stats.js'
import { pairSettings, runWrkPairs } from './lib/wrk-pairs.js'

const PATH = '/general/notifications/send'
/** What the padding may cost a write, as a multiple of what parsing it costs a bare server: reading and validating it, nothing more. */
const EXTRA_TARGET = 2
const headers = { 'content-type': 'application/json' }

/** The body: 10 `password` keys and 1,000 `seed` keys in extra properties, beside a valid notification. */
function paddedBody() {
  /** @type {Record<string, unknown>} */
  const body = { recipient_ids: [1], message: 'hello' }
  for (let i = 0; i < 10; i++) {
    /** @type {Record<string, unknown>} */
    const extra = { password: `secret-${i}-hunter2` }
    for (let j = 0; j < 100; j++) extra[`s${j}`] = { seed: i * 100 + j }
    body[`extra${i}`] = extra
  }
  return JSON.stringify(body)
}

const bodies = { plain: JSON.stringify({ recipient_ids: [1], message: 'hello' }), padded: paddedBody() }

/**
 * Runs the pairs on one server; answers the median req/s and CPU µs per answer of each body.
 *
 * @param {{ url: string, child: { pid?: number } }} server
 * @param {string} name
 * @param {{ duration: number, warmup: number, connections: number, pairs: number }} settings
 * @param {string[]} problems
 */
async function measure(server, name, settings, problems) {
  /** @type {Record<string, { rps: number, cpu: number }>} */
  const figures = {}
  // One server, two bodies: each pair runs both, which goes first alternating from pair to pair.
  const runs = { plain: /** @type {import('./lib/wrk-pairs.js').PairRun[]} */ ([]), padded: /** @type {import('./lib/wrk-pairs.js').PairRun[]} */ ([]) }
  for (let pair = 0; pair < settings.pairs; pair++) {
    /** @type {Array<'plain' | 'padded'>} */
    const order = pair % 2 === 0 ? ['plain', 'padded'] : ['padded', 'plain']
    for (const side of order) {
      const endpoint = { name: `${name} ${side}`, request: { method: 'POST', path: PATH, headers, body: bodies[side] } }
      const result = await runWrkPairs({ targets: { [side]: server.url }, processes: { server: server.child.pid }, endpoint, ...settings, pairs: 1 })
      problems.push(...result.problems)
      runs[side].push(...(Object.values(result.runs)[0] ?? []))
    }
  }
  for (const side of /** @type {const} */ (['plain', 'padded'])) {
    figures[side] = { rps: median(runs[side].map((run) => run.rps)), cpu: median(runs[side].map((run) => run.cpu.server * 1e6)) }
  }
  return figures
}

/** Runs the bench; answers the exit code. */
export async function runCommandInputBench() {
  const settings = pairSettings('extra properties on a write')
  if (settings === undefined) return 1
  log(`bodies: plain ${bodies.plain.length} B, padded ${bodies.padded.length} B; load before ${loadAverage()}`)
  const dir = mkdtempSync(join(tmpdir(), 'mam-bench-commands-'))
  const problems = /** @type {string[]} */ ([])
  const rows = []
  try {
    // The floor answers the simulator's own bytes for the plain body.
    const probe = await startSimulator([], { name: 'probe' })
    const answer = await (await fetch(`${probe.url}${PATH}`, { method: 'POST', headers, body: bodies.plain })).text()
    await stopChild(probe)
    const fixture = { status: 202, headers: { 'content-type': 'application/json' }, body: answer }
    const fixtures = JSON.stringify({
      list: fixture,
      detail: fixture,
      create: fixture,
      detailPrefix: '/none/',
      listPath: '/none',
      routes: [{ method: 'POST', path: PATH, fixture }],
    })
    const servers = [
      { name: 'floor: bare node:http', start: () => startBaseline(fixtures) },
      { name: 'floor: + JSON.parse', start: () => startBaseline(fixtures, { parse: true }) },
      { name: 'default server', start: () => startSimulator([], { name: 'memory' }) },
      { name: '--state-file', start: () => startSimulator(['--state-file', join(dir, 'world.json')], { name: 'state-file' }) },
    ]
    for (const { name, start } of servers) {
      const server = await start()
      const figures = await measure(server, name, settings, problems)
      await stopChild(server)
      rows.push([
        name,
        fmt(figures.plain.rps, 0),
        fmt(figures.padded.rps, 0),
        fmt(figures.plain.cpu, 1),
        fmt(figures.padded.cpu, 1),
        fmt(figures.padded.cpu - figures.plain.cpu, 1),
      ])
    }
  } finally {
    await stopAll()
    rmSync(dir, { recursive: true, force: true })
  }
  log('')
  for (const line of markdownTable(['server', 'plain req/s', 'padded req/s', 'plain CPU µs/answer', 'padded CPU µs/answer', 'extra µs'], rows)) log(line)
  // The verdict: a write pays for the padding at most a small multiple of what parsing it costs at the floor.
  const parseExtra = Number(rows[1]?.[5])
  for (const row of rows.slice(2)) {
    const ratio = Number(row[5]) / parseExtra
    log(
      `${row[0]}: the padding costs ${row[5]} µs per answer, ${fmt(ratio, 1)}× what parsing it costs at the floor (target ≤ ${EXTRA_TARGET}×): ${ratio <= EXTRA_TARGET ? 'met' : 'MISSED'}`,
    )
  }
  log(`load after ${loadAverage()}`)
  for (const problem of problems) log(`problem: ${problem}`)
  return problems.length > 0 ? 1 : 0
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await runCommandInputBench()
