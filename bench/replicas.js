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
// counter). "Two replicas at once": two wrk, one per replica, half the connections each; "one replica
// of two": one loaded while the other follows the log. The join writes the commands through one
// replica, then times a new one from spawn to its first 200 on `/__mock/health` (it listens only once
// caught up) and compares both `GET /__mock/state` byte for byte. Rounds are the outer loop, the order
// reverses every other round; figures are medians over rounds, ratios medians of each round's own.
// Exits non-zero on a non-2xx answer, error, timeout, stderr line, server exit or disagreeing replicas.

import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import { pathToFileURL } from 'node:url'
import { registration } from './lib/bodies.js'
import { fmt, log, markdownTable, targetLines } from './lib/format.js'
import { median } from './lib/median.js'
import { cpuSeconds, loadAverage } from './lib/proc-stats.js'
import { assertAlive, spawnTracked, startChild, stopAll, stopChild } from './lib/processes.js'
import { check, summary } from './lib/run-checks.js'
import { scratchPath } from './lib/scratch.js'
import { CLI, HOST, SERVE_ARGS, startSimulator, stderrProblem } from './lib/servers.js'
import { runWrk, wrkInstalled, wrkScript } from './lib/wrk.js'
import { setting } from './switches.js'

/**
 * @typedef {import('./lib/processes.js').Server} Server
 * @typedef {import('./lib/wrk.js').LoadFigures} LoadFigures
 * @typedef {{ label: string, kind: 'memory' | 'other' | 'file' | 'pair', load: 'read' | 'write', drive: 1 | 2, connections?: number }} Run
 * @typedef {{ commands: number, prefillS: number, bannerMs: number, healthMs: number, agree: boolean, bytes: number }} Join
 * @typedef {Record<string, { figures: LoadFigures[][], cpu: number[] }>} Runs each run's figures (one per replica loaded) and CPU, per round
 */

const BANNER = /multi-area-mock listening on (http:\/\/127\.0\.0\.1:\d+)/
const READ = { request: { method: 'GET', path: '/core/products/prod-1001' } }
// The runs the targets compare, by label.
const [R, R2, W, S] = ['read, one process', 'read, two replicas at once', 'write, one process', 'write, one replica of two']
const [W1, S1, OTHER] = ['write, 1 connection, one process', 'write, 1 connection, one replica of two', 'write, one process, other build']
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
          const j = await joinAfter(joinCommands)
          joins.push(j)
          log(`  join after ${j.commands} commands (written in ${fmt(j.prefillS, 1)} s): health 200 after ${fmt(j.healthMs, 0)} ms, banner after ${fmt(j.bannerMs, 0)} ms`)
          log(`    GET /__mock/state: ${j.bytes} bytes, ${j.agree ? 'the same on both replicas' : 'NOT the same on both replicas'}`)
          continue
        }
        const { figures, cpu } = await measure(step)
        runs[step.label].figures.push(figures)
        runs[step.label].cpu.push(cpu)
        for (const [i, result] of figures.entries()) {
          const name = figures.length > 1 ? `${step.label}, replica ${i + 1}` : step.label
          log(`  ${name.padEnd(44)} ${fmt(result.rps, 0).padStart(7)} req/s  p50 ${fmt(result.p50, 2)} ms  p99 ${fmt(result.p99, 2)} ms  ${summary(result)}`)
        }
      }
    }
    printTables(plan, runs, joins)
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
  await stopAllOf(all, run.label)
  return { figures, cpu }
}

/**
 * Starts what a run loads (`servers`, in order) and every process it needs (`all`): a process in memory (this build's or
 * BENCH_COMPARE's), one with `--state-file`, or Redis and two replicas started one after the other (the first claims the store).
 */
async function deploy(/** @type {Run} */ { kind }) {
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

/** Every process must still run and have written nothing to stderr; then each is stopped, Redis last. */
async function stopAllOf(/** @type {Server[]} */ all, /** @type {string} */ label) {
  for (const server of all) {
    assertAlive(label, server, problems)
    const stderr = stderrProblem(label, server)
    if (stderr) problems.push(stderr)
  }
  for (const server of all) await stopChild(server)
}

/** Redis and a replica; `commands` writes through it; then a second replica, timed from its spawn to its first health 200, and both worlds compared. */
async function joinAfter(/** @type {number} */ commands) {
  const redis = await startRedis()
  const first = await startSimulator(['--store', redis.url], { name: 'replica 1', timeoutMs: 60_000 })
  const prefillS = await prefill(first.url, commands)
  // Every command ever added (snapshots trim the stream behind them, so its length is far less).
  const info = spawnSync('redis-cli', ['-h', HOST, '-p', new URL(redis.url).port, 'XINFO', 'STREAM', 'mam:{default}:log'], { encoding: 'utf8' })
  const lines = info.stdout.trim().split('\n')
  const inStore = Number(lines[lines.indexOf('entries-added') + 1])
  if (!(inStore >= commands)) problems.push(`join: the store's log took ${inStore || info.stderr.trim()} commands, fewer than the ${commands} written`)
  const port = await freePort()
  const args = [CLI, ...SERVE_ARGS.map((arg, i) => (SERVE_ARGS[i - 1] === '--port' ? String(port) : arg)), '--store', redis.url]
  const spawnedAt = performance.now()
  const joining = startChild('joining replica', process.execPath, args, BANNER, {}, 300_000)
  /** @type {unknown} */ let failed
  void joining.catch((error) => (failed = error))
  // Polled from the spawn on: refused until the replica has caught up and listens.
  let healthMs = NaN
  while (Number.isNaN(healthMs)) {
    if (failed) throw failed
    if (performance.now() > spawnedAt + 300_000) throw new Error('join: the joining replica did not answer its health within 300 s')
    const response = await fetch(`http://${HOST}:${port}/__mock/health`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined)
    await response?.arrayBuffer()
    if (response?.status === 200) healthMs = performance.now() - spawnedAt
    else await new Promise((resolve) => setTimeout(resolve, 5))
  }
  const second = await joining
  const states = await Promise.all([first, second].map((server) => fetch(`${server.url}/__mock/state`, { signal: AbortSignal.timeout(60_000) })))
  const [a, b] = await Promise.all(states.map((response) => (response.status === 200 ? response.text() : `status ${response.status}`)))
  const agree = a === b && states[0].status === 200
  if (!agree) problems.push(`join after ${inStore} commands: the joining replica's GET /__mock/state differs from the first replica's (or is not a 200)`)
  await stopAllOf([first, second, redis], 'join')
  return { commands: inStore, prefillS, bannerMs: second.startupMs, healthMs, agree, bytes: Buffer.byteLength(a) }
}

/**
 * Writes `commands` through a replica with wrk, users and product updates alternately; answers the seconds it took. wrk's thread
 * stops once that many are answered (those still in flight may add up to BENCH_CONNECTIONS - 1), and prints a line: wrk's main
 * thread sleeps for all of `-d` whatever its threads do, so the bench interrupts it (SIGINT ends the sleep; wrk then reports).
 */
async function prefill(/** @type {string} */ url, /** @type {number} */ commands) {
  const script = scratchPath('prefill.lua')
  const lua = `local n, answered = 0, 0
local headers = { ["content-type"] = "application/json" }
request = function()
  n = n + 1
  if n % 2 == 0 then return wrk.format("PUT", "/core/products/prod-" .. (1001 + n % 12), headers, string.format('{"price":%d,"stock":%d}', n % 1000, n)) end
  return wrk.format("POST", "/core/users", headers, string.format('{"username":"join-%d","email":"join-%d@example.com","password":"Passw0rd!"}', n, n))
end
response = function() answered = answered + 1 if answered == ${commands} then wrk.thread:stop() io.write("BENCH_STOPPED\\n") io.flush() end end
`
  writeFileSync(script, `${wrkScript({ request: { method: 'POST', path: '/core/users' } })}${lua}`)
  const started = performance.now()
  const wrk = spawnTracked('wrk', ['-t1', `-c${config.connections}`, `-d${Math.max(60, Math.ceil(commands / 100))}s`, '--timeout', '10s', '-s', script, url])
  const stopped = () => wrk.output.out.includes('BENCH_STOPPED') && (wrk.child.stdout?.off('data', stopped), wrk.child.kill('SIGINT'))
  wrk.child.stdout?.on('data', stopped)
  const code = await wrk.closed
  const figures = /BENCH_JSON (\{.*\})/.exec(wrk.output.out)
  if (code !== 0 || !figures) throw new Error(`wrk failed (${code}) writing the join's commands:\n${wrk.output.out}\n${wrk.output.err}`)
  const { requests, connect, read, write, status, timeout } = JSON.parse(figures[1])
  if (requests < commands || connect + read + write + status + timeout > 0)
    problems.push(`join's commands: ${requests} answered of ${commands}, ${status} non-2xx, ${connect + read + write} errors, ${timeout} timeouts`)
  return (performance.now() - started) / 1000
}

/** Debian's redis-server on a free loopback port in a fresh folder, durable as the tests ask; resolves once it accepts connections. */
async function startRedis() {
  const dir = scratchPath('redis')
  mkdirSync(dir)
  const port = await freePort()
  const args = ['--port', String(port), '--bind', HOST, '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always']
  args.push('--protected-mode', 'yes', '--daemonize', 'no', '--logfile', '', '--loglevel', 'notice')
  return { ...(await startChild('redis-server', '/usr/bin/redis-server', args, /Ready to (accept) connections/)), url: `redis://${HOST}:${port}` }
}

/** A port nothing listens on now (the kernel's pick, closed again). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, HOST, () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** The medians of every run, then the issue's targets with verdicts (and the figures given for information). */
function printTables(/** @type {Run[]} */ plan, /** @type {Runs} */ runs, /** @type {Join[]} */ joins) {
  const of = (/** @type {string} */ label, i = 0) => runs[label].figures.map((round) => round[i])
  const m = (/** @type {string} */ label, /** @type {'rps' | 'p50' | 'p99'} */ field, i = 0) => median(of(label, i).map((result) => result[field]))
  /** The median over the rounds of a figure of `a`'s replica `i` against the same round's `b`. */
  const paired = (/** @type {string} */ a, /** @type {string} */ b, /** @type {(x: LoadFigures, y: LoadFigures) => number} */ how, i = 0) =>
    median(of(a, i).map((result, round) => how(result, of(b)[round])))
  const ratio = (/** @type {LoadFigures} */ a, /** @type {LoadFigures} */ b) => a.rps / b.rps
  const body = plan.flatMap((run) =>
    Array.from({ length: run.drive }, (_, i) => {
      const perRound = of(run.label, i).map((result) => fmt(result.rps, 0))
      const name = run.drive > 1 ? `${run.label}, replica ${i + 1}` : run.label
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await runReplicasBench()
