// @ts-check
// The rounds of a throughput run: each round runs every row on every server (a fresh simulator per run, warm-up first), and each figure is the median over the rounds.

import { median } from './median.js'
import { cpuPerResponse, load } from './load.js'
import { log, fmt } from './format.js'
import { loadAverage } from './proc-stats.js'
import { assertAlive, stopChild } from './processes.js'
import { check, summary, worldIntegrity } from './run-checks.js'
import { stderrProblem } from './servers.js'

/**
 * @typedef {import('./processes.js').Server} Server
 * @typedef {import('./load.js').LoadResult} LoadResult
 * @typedef {import('../scenarios.js').Row} Row
 */
/**
 * What a throughput run was asked for (bench/switches.js) and how it starts a variant's server.
 *
 * @typedef {object} Plan
 * @property {string[]} modes simulator variants
 * @property {(mode: string, extra?: string[]) => Promise<Server>} start
 * @property {number} duration
 * @property {number} warmup
 * @property {number} connections
 * @property {number} rounds
 * @property {number} perRoundSignatures
 * @property {number} journalPairs
 * @property {'wrk' | 'autocannon'} driver
 */
/**
 * The medians of one row on one server over the rounds.
 *
 * @typedef {{ rps: number, p50: number, p99: number, max: number, total: number, ok: number, non2xx: number, errors: number, timeouts: number, cpuPerResponse: number, cpuShare: number, rounds: number[] }} Medians
 * @typedef {{ endpoint: Row } & Record<string, Medians>} MedianRow
 */

/**
 * Runs the rounds; rounds are the outer loop, so drift on a shared machine spreads over every server alike.
 *
 * @param {Plan} plan
 * @param {Row[]} rows
 * @param {Record<string, Server>} bare the bare servers, started once for the whole run
 * @param {number} usersSeeded
 * @param {string[]} problems found so far; this adds its own
 * @returns {Promise<{ medians: MedianRow[], integrity: string[] }>}
 */
export async function runRounds(plan, rows, bare, usersSeeded, problems) {
  const { rounds, warmup, duration, connections } = plan
  const servers = [...plan.modes, ...Object.keys(bare)]
  /** @type {Record<string, Record<string, LoadResult[]>>} runs[row key][label] = one result per round */
  const runs = Object.fromEntries(rows.map((row) => [row.key, {}]))
  const integrity = []
  for (let round = 0; round < rounds; round++) {
    if (rounds > 1) log(`round ${round + 1} of ${rounds} (load average ${loadAverage()})`)
    for (const row of rows) {
      for (const label of servers) {
        // Each simulator run is a freshly started server (seeded world, cold JIT,
        // then the warm-up): a run measures its endpoint, not what the rows before
        // it left behind (300,000 particles from one entangle row slow a later list
        // by ~16%; growth has its own figures in `--scale`), nor how V8 shrank an
        // idle heap while the other servers were measured (after ~26 s idle, V8's
        // memory reducer left a server 15–25% slower for good: bench/README.md).
        const server = bare[label] ?? (await plan.start(label, row.serverArgs))
        row.onServer?.(round)
        const offset = row.signedFile ? round * plan.perRoundSignatures : 0
        let created201 = 0
        if (warmup > 0) {
          const warm = await load(server, row, warmup, offset, connections)
          problems.push(...check(`${label} ${row.name} (warm-up)`, warm))
          created201 += warm.ok
        }
        // The run continues the warm-up's slice of signatures.
        const result = await load(server, row, duration, offset + (row.signedFile ? Math.ceil(warmup * 1500) : 0), connections)
        problems.push(...check(`${label} ${row.name}`, result))
        assertAlive(label, server, problems)
        if (!bare[label] && row.createsUser) {
          created201 += result.ok
          const line = await worldIntegrity(label, server, { seeded: usersSeeded, created201, runs: warmup > 0 ? 2 : 1, connections })
          if (round === rounds - 1) integrity.push(line.text)
          if (!line.ok) problems.push(`world integrity: ${line.text}`)
        }
        if (!bare[label]) {
          const stderr = stderrProblem(label, server)
          if (stderr) problems.push(stderr)
          await stopChild(server)
        }
        ;(runs[row.key][label] ??= []).push(result)
        log(`  ${label.padEnd(9)} ${row.name.padEnd(36)} ${fmt(result.rps, 0).padStart(8)} req/s  p99 ${fmt(result.p99, 1)} ms  ${summary(result)}`)
      }
    }
  }
  const medians = rows.map(
    (row) => /** @type {MedianRow} */ ({ endpoint: row, ...Object.fromEntries(Object.entries(runs[row.key]).map(([label, results]) => [label, medianOf(results)])) }),
  )
  return { medians, integrity }
}

/**
 * The median of each figure over the rounds (req/s and p99 each on their own); counts summed.
 *
 * @param {LoadResult[]} results
 * @returns {Medians}
 */
function medianOf(results) {
  const medianBy = (/** @type {(result: LoadResult) => number} */ pick) => median(results.map(pick))
  const sum = (/** @type {(result: LoadResult) => number} */ pick) => results.reduce((total, result) => total + pick(result), 0)
  return {
    rps: medianBy((r) => r.rps),
    p50: medianBy((r) => r.p50),
    p99: medianBy((r) => r.p99),
    max: medianBy((r) => r.max),
    total: sum((r) => r.total),
    ok: sum((r) => r.ok),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    cpuPerResponse: medianBy(cpuPerResponse),
    cpuShare: medianBy((r) => (r.cpu.server === undefined ? NaN : r.cpu.server / r.cpu.wall)),
    rounds: results.map((r) => Math.round(r.rps)),
  }
}
