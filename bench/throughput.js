// @ts-check
// The throughput bench (`npm run bench`): the real CLI server in each variant against a bare node:http baseline of the same bytes, rounds of wrk runs, journal pairs, tables and issue 25's targets.

import { writeFileSync } from 'node:fs'
import os from 'node:os'
import { registration, signedDelegations } from './lib/bodies.js'
import { assertSameBytes, capture, captureFixtures } from './lib/fixtures.js'
import { log } from './lib/format.js'
import { journalPairs } from './lib/journal-pairs.js'
import { driver } from './lib/load.js'
import { loadAverage } from './lib/proc-stats.js'
import { stopAll, stopChild } from './lib/processes.js'
import { printDetails, printIssueTable, printJournalCost, printTable } from './lib/report.js'
import { runRounds } from './lib/rounds.js'
import { scratchPath } from './lib/scratch.js'
import { CLI, HOST, startBaseline, stderrProblem } from './lib/servers.js'
import { baselineFixtures, checkedRequests, DELEGATE_PATH, EIP191, requestBodies, selectedModes, throughputRows, wants } from './scenarios.js'
import { setting } from './switches.js'

/**
 * Runs every selected row on every server, prints the tables and the targets; resolves to the exit code.
 *
 * @example
 * process.exitCode = await runThroughput()
 */
export async function runThroughput() {
  const { modes, variants, start } = selectedModes()
  const rounds = setting('BENCH_ROUNDS')
  const perRoundSignatures = setting('BENCH_SIGNATURES')
  /** @type {import('./lib/rounds.js').Plan} */
  const plan = {
    modes,
    start,
    duration: setting('BENCH_DURATION'),
    warmup: setting('BENCH_WARMUP'),
    connections: setting('BENCH_CONNECTIONS'),
    rounds,
    perRoundSignatures,
    journalPairs: setting('BENCH_JOURNAL_PAIRS'),
    driver: driver(),
  }
  const { connections, warmup, duration } = plan
  if (setting('BENCH_SMOKE')) log('BENCH_SMOKE=1: a smoke run (bench/switches.js gives its settings); it shows the bench runs, its figures mean nothing')
  log(`multi-area-mock benchmark: ${connections} connections, ${warmup} s warm-up + ${duration} s measured per endpoint and server, ${rounds} round(s), medians`)
  if (plan.driver === 'wrk') log(`load: wrk -t1 -c${connections} -d${duration}s (a child process, like every server)`)
  else {
    log('warning: wrk is not installed (Debian/Ubuntu: apt-get install -y wrk); falling back to autocannon in the bench process.')
    log('warning: autocannon caps the bare baseline at about half its real rate on a small machine, so every ratio below is inflated.')
  }
  log(`node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAverage()}; servers in child processes, all on ${HOST}`)
  if (os.loadavg()[0] > 0.5 * os.cpus().length) log('warning: the machine is already busy; results will be skewed')

  /** @type {Record<string, import('./lib/processes.js').Server>} */
  const sims = {}
  for (const mode of modes) {
    sims[mode] = await start(mode)
    log(
      `simulator ${mode} (${variants[mode].join(' ')}): ${sims[mode].url} (pid ${sims[mode].child.pid}; banner ${Math.round(sims[mode].startupMs)} ms after spawn, world seeded in ${sims[mode].seeding})`,
    )
  }
  // Area E's eip191 row needs servers that recover signers.
  /** @type {Record<string, import('./lib/processes.js').Server>} */
  const signing = {}
  for (const mode of wants('eip191') ? modes : []) {
    signing[mode] = await start(mode, EIP191)
    log(`simulator ${mode} --signature-mode eip191: ${signing[mode].url} (pid ${signing[mode].child.pid})`)
  }

  // Capture the real answers first: they become the baseline's fixtures; every variant must answer byte for byte alike (same seed, clock and requests).
  const bodies = requestBodies()
  const fixtures = await captureFixtures(sims[modes[0]].url, bodies)
  for (const mode of modes.slice(1)) await assertSameBytes(mode, sims[mode].url, checkedRequests(fixtures, registration('bench-capture'), fixtures.captureDelegation), "msw's")

  const answers = baselineFixtures(fixtures)
  const baseline = await startBaseline(answers)
  log(`baseline:  ${baseline.url} (pid ${baseline.child.pid})`)
  // The same bare server ending each turn's answers together, as the simulator's server does: shows what that write pattern alone is worth.
  const batched = setting('BENCH_BATCHED_BASELINE') ? await startBaseline(answers, { batched: true }) : undefined
  if (batched) log(`batched:   ${batched.url} (pid ${batched.child.pid}; the baseline, ending answers at the end of each event-loop turn)`)
  const bare = { baseline, ...(batched ? { batched } : {}) }
  const baselineChecks = checkedRequests(fixtures, registration('bench-check'), bodies.formatDelegation())
  for (const [label, server] of Object.entries(bare)) await assertSameBytes(label, server.url, baselineChecks, "the simulator's")

  // A used signature is a 409, so the eip191 row sends each of these once per server; signing takes a few seconds per 10,000.
  const started = performance.now()
  const signatures = perRoundSignatures * rounds
  const signed = wants('eip191') ? await signedDelegations(signatures) : []
  if (signed.length > 0) log(`signed ${signatures} delegations for the eip191 row in ${Math.round(performance.now() - started)} ms (BENCH_SIGNATURES)`)
  if (signing[modes[0]]) {
    const [check] = await signedDelegations(1, signatures)
    const eip191Check = await capture(signing[modes[0]].url, 'POST', DELEGATE_PATH, 202, check)
    if (Buffer.byteLength(eip191Check.body) !== Buffer.byteLength(fixtures.delegated.body)) throw new Error('eip191 and format delegations answer bodies of different sizes')
  }

  // The capture servers have done their part; every load run starts its own.
  for (const [mode, server] of [...Object.entries(sims), ...Object.entries(signing)]) {
    const stderr = stderrProblem(mode, server)
    if (stderr) throw new Error(stderr)
    await stopChild(server)
  }

  const signedFile = scratchPath('eip191.jsonl')
  writeFileSync(signedFile, `${signed.join('\n')}\n`)
  const rows = throughputRows(fixtures, bodies, { file: signedFile, list: signed, perRound: perRoundSignatures })
  /** @type {string[]} */
  const problems = []
  const { medians, integrity } = await runRounds(plan, rows, bare, fixtures.usersSeeded, problems)
  const pairs = await journalPairs(plan, rows, problems)

  printIssueTable(plan, medians)
  printTable(plan, medians)
  printJournalCost(plan, medians, pairs)
  printDetails(plan, medians)
  if (integrity.length > 0) log(`\nWorld integrity, last round's create row:\n${integrity.join('\n')}`)
  log(`load average at the end ${loadAverage()} (1, 5, 15 min; anything beyond the bench itself skews the numbers)`)
  // The servers are stopped first: the targets below start their own processes.
  await stopAll()
  const { httpTargetRows, otherTargetRows, printTargets } = await import('./targets.js')
  const targets = httpTargetRows(medians, rounds)
  // BENCH_TARGETS=0: the HTTP rows only (a quick look at one path).
  if (setting('BENCH_TARGETS')) targets.push(...(await otherTargetRows({ cli: CLI })))
  printTargets(targets)

  if (problems.length > 0) {
    log(`\nFAIL: ${problems.length} problem(s); the numbers above include error responses and must not be trusted:`)
    for (const problem of problems) log(`  - ${problem}`)
    return 1
  }
  log('\nOK: every response had the expected status; no connection errors or timeouts.')
  return 0
}
