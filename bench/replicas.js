// @ts-check
// Replicas and the file log (`npm run bench:replicas`, issue 33): one in-memory process against two replicas sharing Redis, a replica joining a long log, `--state-file` writes, and optionally another build's.
//
//   npm run bench:replicas                                     # build, then 3 rounds (~5 min)
//   BENCH_SMOKE=1 node bench/replicas.js                       # smoke run after a build: 1 round of 1 s runs, 2,000 commands before the join
//   BENCH_COMPARE=../prev/bin/multi-area-mock.js npm run bench:replicas   # also the other build's in-memory writes, same rounds
//
// Each run starts its own servers (seed 1, frozen clock, `--quiet`) and, for replicas, its own Debian
// redis-server on a free loopback port in a temporary folder (`--appendonly yes --appendfsync always`).
// Reads: `GET /core/products/prod-1001`; writes: `POST /core/users`, a fresh username each (wrk's Lua
// counter). "Two replicas at once": two wrk, one per replica, half the connections each (and, as the reads' floor, two
// processes without a store driven the same way: on a machine of few cores they share it as replicas do); "one replica
// of two": one loaded while the other follows the log. The join writes the commands through one
// replica, then times a new one from spawn to its first 200 on `/__mock/health` (it listens only once
// caught up) and compares both `GET /__mock/state` byte for byte. Rounds are the outer loop, the order
// reverses every other round; figures are medians over rounds, ratios medians of each round's own.
// Exits non-zero on a non-2xx answer, error, timeout, stderr line, server exit or disagreeing replicas.

import os from 'node:os'
import { pathToFileURL } from 'node:url'
import { registration } from './lib/bodies.js'
import { fmt, log } from './lib/format.js'
import { cpuSeconds, loadAverage } from './lib/proc-stats.js'
import { stopAll } from './lib/processes.js'
import { check, summary } from './lib/run-checks.js'
import { scratchPath } from './lib/scratch.js'
import { startSimulator } from './lib/servers.js'
import { runWrk, wrkInstalled } from './lib/wrk.js'
import { joinAfter } from './replica-join.js'
import { startRedis, stopAllOf } from './replica-processes.js'
import { OTHER, printTables, R, R2, R2F, S, S1, W, W1 } from './replica-report.js'
import { setting } from './switches.js'

/**
 * @typedef {import('./lib/wrk.js').LoadFigures} LoadFigures
 * @typedef {import('./replica-join.js').Join} Join
 * @typedef {{ label: string, kind: 'memory' | 'other' | 'file' | 'pair' | 'twin', load: 'read' | 'write', drive: 1 | 2, connections?: number }} Run
 * @typedef {Record<string, { figures: LoadFigures[][], cpu: number[] }>} Runs each run's figures (one per replica loaded) and CPU, per round
 */

const READ = { request: { method: 'GET', path: '/core/products/prod-1001' } }
const smoke = process.env.BENCH_SMOKE === '1'
/** This script's own defaults where neither the environment nor BENCH_SMOKE sets a switch: the shared ones would take ~10 min. */
const knob = (/** @type {string} */ name, /** @type {number} */ fallback) => (process.env[name] || smoke ? setting(name) : fallback)
const config = {
  duration: knob('BENCH_DURATION', 5),
  warmup: knob('BENCH_WARMUP', 2),
  rounds: knob('BENCH_ROUNDS', 3),
  connections: /** @type {number} */ (setting('BENCH_CONNECTIONS')),
  compare: /** @type {string | undefined} */ (setting('BENCH_COMPARE')),
  joinCommands: Number(process.env.BENCH_JOIN_COMMANDS || (smoke ? 2000 : 100_000)),
}
const half = Math.max(1, Math.floor(config.connections / 2))
/** @type {string[]} what makes the run fail */
const problems = []
let tag = 0

/**
 * Runs every round, prints the tables and the targets; answers the exit code.
 *
 * @example
 * process.exitCode = await runReplicasBench()
 */
export async function runReplicasBench() {
  const { duration, warmup, rounds, connections, compare, joinCommands } = config
  if (!Number.isSafeInteger(joinCommands) || joinCommands < 1) throw new Error(`BENCH_JOIN_COMMANDS must be a positive integer, got "${process.env.BENCH_JOIN_COMMANDS}"`)
  if (!wrkInstalled()) {
    log('bench: wrk is not installed (Debian/Ubuntu: apt-get install -y wrk); this bench needs it.')
    return 1
  }
  /** @type {Run[]} */
  const plan = [
    { label: R, kind: 'memory', load: 'read', drive: 1 },
    { label: R2, kind: 'pair', load: 'read', drive: 2 },
    { label: R2F, kind: 'twin', load: 'read', drive: 2 },
    { label: W, kind: 'memory', load: 'write', drive: 1 },
    { label: S, kind: 'pair', load: 'write', drive: 1 },
    { label: 'write, two replicas at once', kind: 'pair', load: 'write', drive: 2 },
    { label: 'write, --state-file', kind: 'file', load: 'write', drive: 1 },
    { label: W1, kind: 'memory', load: 'write', drive: 1, connections: 1 },
    { label: S1, kind: 'pair', load: 'write', drive: 1, connections: 1 },
    ...(compare ? [/** @type {Run} */ ({ label: OTHER, kind: 'other', load: 'write', drive: 1 })] : []),
  ]
  /** @type {Runs} */
  const runs = Object.fromEntries(plan.map((run) => [run.label, { figures: [], cpu: [] }]))
  /** @type {Join[]} */
  const joins = []
  try {
    log(`replicas: wrk -t1 -c${connections} (two replicas at once: -c${half} each), ${warmup} s warm-up + ${duration} s per run, ${rounds} round(s), medians`)
    log(`node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAverage()} at the start${compare ? `; other build: ${compare}` : ''}`)
    for (let round = 0; round < rounds; round++) {
      log(`round ${round + 1} of ${rounds} (load average ${loadAverage()})`)
      /** @type {Array<Run | 'join'>} */
      const steps = [...plan, 'join']
      for (const step of round % 2 === 0 ? steps : steps.reverse()) {
        if (step === 'join') {
          const j = await joinAfter(joinCommands, { connections, problems })
          joins.push(j)
          log(`  join after ${j.commands} commands (written in ${fmt(j.prefillS, 1)} s): health 200 after ${fmt(j.healthMs, 0)} ms, banner after ${fmt(j.bannerMs, 0)} ms`)
          log(`    GET /__mock/state: ${j.bytes} bytes, ${j.agree ? 'the same on both replicas' : 'NOT the same on both replicas'}`)
          continue
        }
        const { figures, cpu } = await measure(step)
        runs[step.label].figures.push(figures)
        runs[step.label].cpu.push(cpu)
        for (const [i, result] of figures.entries()) {
          const name = figures.length > 1 ? `${step.label}, ${step.kind === 'twin' ? 'process' : 'replica'} ${i + 1}` : step.label
          log(`  ${name.padEnd(44)} ${fmt(result.rps, 0).padStart(7)} req/s  p50 ${fmt(result.p50, 2)} ms  p99 ${fmt(result.p99, 2)} ms  ${summary(result)}`)
        }
      }
    }
    printTables(plan, runs, joins, config)
    log(`\nload average ${loadAverage()} at the end`)
    if (problems.length === 0) return 0
    log(`\nFAIL:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    return 1
  } finally {
    await stopAll()
  }
}

/** One run on fresh servers: the warm-up, then the measured load, and the CPU of every process of the setup meanwhile (µs per request). */
async function measure(/** @type {Run} */ run) {
  const { servers, all } = await deploy(run)
  const connections = run.connections ?? (run.drive === 2 ? half : config.connections)
  const write = () => ({ request: { method: 'POST', path: '/core/users', headers: { 'content-type': 'application/json' } }, template: registration(`bench-${++tag}-{n}`) })
  const go = (/** @type {number} */ seconds) =>
    Promise.all(servers.slice(0, run.drive).map((server, i) => runWrk(server.url, run.load === 'read' ? READ : write(), seconds, connections, `${run.label} ${i + 1}`)))
  if (config.warmup > 0) (await go(config.warmup)).forEach((result, i) => problems.push(...check(`${run.label} ${i + 1} (warm-up)`, result)))
  const cpuOf = () => all.reduce((total, server) => total + (cpuSeconds(server.child.pid) ?? NaN), 0)
  const cpu0 = cpuOf()
  const figures = await go(config.duration)
  const cpu = ((cpuOf() - cpu0) / figures.reduce((total, result) => total + result.total, 0)) * 1e6
  figures.forEach((result, i) => problems.push(...check(`${run.label} ${i + 1}`, result)))
  await stopAllOf(all, run.label, problems)
  return { figures, cpu }
}

/**
 * Starts what a run loads (`servers`, in order) and every process it needs (`all`): a process in memory (this build's or
 * BENCH_COMPARE's), one with `--state-file`, two in memory side by side (the reads' floor), or Redis and two replicas started
 * one after the other (the first claims the store).
 */
async function deploy(/** @type {Run} */ { kind }) {
  if (kind === 'twin') {
    const servers = [await startSimulator([], { name: 'process 1 of two' }), await startSimulator([], { name: 'process 2 of two' })]
    return { servers, all: servers }
  }
  if (kind !== 'pair') {
    const extra = kind === 'file' ? ['--state-file', scratchPath('world.json')] : []
    const server = await startSimulator(extra, { name: `simulator (${kind})`, ...(kind === 'other' && config.compare ? { cli: config.compare } : {}) })
    return { servers: [server], all: [server] }
  }
  const redis = await startRedis()
  const first = await startSimulator(['--store', redis.url], { name: 'replica 1', timeoutMs: 60_000 })
  const second = await startSimulator(['--store', redis.url], { name: 'replica 2', timeoutMs: 60_000 })
  return { servers: [first, second], all: [first, second, redis] }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await runReplicasBench()
