// @ts-check
// The scale figures (`npm run bench -- --scale`): a 1,000-user against a 100,000-user world, wrk on list, read and create; `node bench/scale.js` alone prints the scale targets.
//
// The CLI server (default dispatch) seeded with each of BENCH_SCALE_SIZES generated
// users, a fresh server per size and round (BENCH_SCALE_ROUNDS, the sizes' order
// alternating), each measured the same way:
//   - in-process first (bench/heap-per-user.js, node --expose-gc): heap bytes per
//     user after full GCs and the seeding time and CPU, medians of 3 seedings;
//   - seeding time (the banner's "ready in") and RSS once started (first round);
//   - GET /__mock/state (first round) (the whole world as JSON): time to the last byte, the
//     first call and the median of 3;
//   - wrk -t1 -c50 (BENCH_DURATION s after BENCH_WARMUP s) on the rows of
//     bench/scenarios.js's scaleRows: the list's first and last page (limit 100),
//     one user by id, and user creation;
//   - the server's CPU per response in each run (/proc, user + system): steadier
//     than req/s on a busy machine;
//   - RSS after each run, so a climb under sustained load shows.
// Ratios 100k / 1k of the medians close the table: the targets are throughput within 10 %
// (ratio ≥ 0.90) and p99 within 1.5×. The issue-25 scale targets come first
// (bench/scale-targets.js).

import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { log, targetLines } from './lib/format.js'
import { median } from './lib/median.js'
import { cpuSeconds, loadAverage, rssMb } from './lib/proc-stats.js'
import { stopChild } from './lib/processes.js'
import { scratchPath } from './lib/scratch.js'
import { startSimulator } from './lib/servers.js'
import { runWrk } from './lib/wrk.js'
import { scaleTargetRows, timedGet, usersScenario } from './scale-targets.js'
import { scaleRows } from './scenarios.js'
import { setting } from './switches.js'

/**
 * @typedef {{ rps: number, p99: number, cpuPerResponse: number }} ScaleRun
 * @typedef {{ size: number, scenarioFile: string, rounds: Record<string, ScaleRun[]>, seeding?: string, startupMs?: number, rssStart?: number, stateMs?: number, stateMedianMs?: number, stateMb?: number, rss: number[], runs?: Record<string, ScaleRun & { each: number[] }> }} SizeFigures
 */

/**
 * Runs the scale figures; resolves to the exit code.
 *
 * @example
 * process.exitCode = await runScale({ wrkAvailable: true })
 * @param {{ wrkAvailable: boolean }} options
 */
export async function runScale({ wrkAvailable }) {
  if (!wrkAvailable) {
    log('bench --scale needs wrk (Debian/Ubuntu: apt-get install -y wrk).')
    return 1
  }
  const duration = setting('BENCH_DURATION')
  const warmup = setting('BENCH_WARMUP')
  const connections = setting('BENCH_CONNECTIONS')
  /** @type {number[]} */
  const sizes = setting('BENCH_SCALE_SIZES')
  const rounds = setting('BENCH_SCALE_ROUNDS')
  const targets = await scaleTargetRows()
  log(`Targets at 100,000 users (load average ${loadAverage()}):`)
  for (const line of targetLines(targets)) log(line)
  log('')
  const problems = targets.filter((row) => !row.met).map((row) => `not met: ${row.target}: ${row.measured} (${row.limit})`)
  log(`multi-area-mock scale figures: ${sizes.join(' and ')} generated users; wrk -t1 -c${connections} -d${duration}s after ${warmup} s warm-up; load average ${loadAverage()}`)
  /** @type {Record<number, ReturnType<typeof heapPerUser>>} */
  const inProcess = {}
  for (const size of sizes) {
    const f = (inProcess[size] = heapPerUser(size))
    log(
      `  ${String(size).padStart(6)} users in-process: ${f.heapBytesPerUser} bytes of heap per user, seeded in ${f.seedMs} ms (${f.seedCpuMs} ms CPU), state as JSON ${f.stateMs} ms (medians of ${f.rounds}); load average ${loadAverage()}`,
    )
  }
  /** @type {Record<number, SizeFigures>} */
  const results = {}
  for (const size of sizes) {
    const scenarioFile = scratchPath(`users-${size}.json`)
    writeFileSync(scenarioFile, usersScenario(size))
    results[size] = { size, scenarioFile, rounds: {}, rss: [] }
  }
  // Rounds, sizes alternating in order, a fresh server each time: on this machine
  // req/s drift by ±20 % within minutes, more than the 10 % the ratios test, so
  // every figure is a median over rounds (BENCH_SCALE_ROUNDS).
  for (let round = 0; round < rounds; round++) {
    if (rounds > 1) log(`round ${round + 1} of ${rounds} (load average ${loadAverage()})`)
    for (const size of round % 2 === 0 ? sizes : [...sizes].reverse()) {
      const figures = results[size]
      const server = await startSimulator(['--scenario', figures.scenarioFile], { name: `simulator (${size} users)`, timeoutMs: 60_000 })
      const pid = server.child.pid
      if (round === 0) {
        Object.assign(figures, { seeding: server.seeding, startupMs: Math.round(server.startupMs), rssStart: rssMb(pid) })
        const states = [await timedGet(`${server.url}/__mock/state`), await timedGet(`${server.url}/__mock/state`), await timedGet(`${server.url}/__mock/state`)]
        figures.stateMs = states[0].ms
        figures.stateMedianMs = states.map((state) => state.ms).sort((a, b) => a - b)[1]
        figures.stateMb = states[0].bytes / 1e6
      }
      const first = /** @type {Array<{ id: string }>} */ (await (await fetch(`${server.url}/admin/api/v1.2/users?limit=100`)).json())
      const rows = scaleRows(first[0].id, Math.ceil((size + 48) / 100))
      for (const { name, request, template } of rows) {
        const tag = (/** @type {string} */ kind) => `${size}${kind}${round}${name.length}`
        if (warmup > 0) await runWrk(server.url, { request, template: template?.(tag('w')) }, warmup, connections, `scale ${name}`)
        const cpuBefore = cpuSeconds(pid)
        const result = await runWrk(server.url, { request, template: template?.(tag('r')) }, duration, connections, `scale ${name}`)
        const cpuPerResponse = (((cpuSeconds(pid) ?? NaN) - (cpuBefore ?? NaN)) * 1e6) / Math.max(1, result.total)
        const errors = result.errors + result.timeouts
        if (result.non2xx > 0 || errors > 0) problems.push(`${size} users, ${name}: ${result.non2xx} non-2xx, ${errors} errors`)
        ;(figures.rounds[name] ??= []).push({ rps: result.rps, p99: result.p99, cpuPerResponse })
        if (round === 0) figures.rss.push(rssMb(pid))
        log(
          `  ${String(size).padStart(6)} users  ${name.padEnd(17)} ${result.rps.toFixed(0).padStart(7)} req/s  p99 ${result.p99.toFixed(1)} ms  CPU ${cpuPerResponse.toFixed(0)} µs/response  RSS ${rssMb(pid)} MB  (load average ${loadAverage()})`,
        )
      }
      if (round === 0) {
        // Sustained load on one path: does RSS level off?
        const read = rows.find((row) => row.name === 'read by id') ?? rows[0]
        for (let i = 0; i < 5; i++) {
          await runWrk(server.url, { request: read.request }, duration, connections, `scale sustained ${i}`)
          figures.rss.push(rssMb(pid))
        }
        log(
          `  ${size} users: seeded in ${figures.seeding} (banner ${figures.startupMs} ms after spawn), RSS after start ${figures.rssStart} MB, GET /__mock/state ${figures.stateMs} ms, median of 3 ${figures.stateMedianMs} ms (${figures.stateMb?.toFixed(1)} MB), RSS after each run ${figures.rss.join(' → ')} MB`,
        )
      }
      await stopChild(server)
    }
  }
  for (const size of sizes) {
    const figures = results[size]
    const pick = (/** @type {ScaleRun[]} */ runs, /** @type {keyof ScaleRun} */ field) => median(runs.map((run) => run[field]))
    figures.runs = Object.fromEntries(
      Object.entries(figures.rounds).map(([name, runs]) => [
        name,
        { rps: pick(runs, 'rps'), p99: pick(runs, 'p99'), cpuPerResponse: pick(runs, 'cpuPerResponse'), each: runs.map((run) => Math.round(run.rps)) },
      ]),
    )
  }
  printScaleTables(
    sizes.map((size) => results[size]),
    inProcess,
    rounds,
  )
  log(`load average at the end ${loadAverage()}`)
  for (const problem of problems) log(`  - ${problem}`)
  return problems.length > 0 ? 1 : 0
}

/**
 * The two tables of the first two sizes: the runs side by side with their ratios, then memory and seeding.
 *
 * @param {SizeFigures[]} figures
 * @param {Record<number, ReturnType<typeof heapPerUser>>} inProcess
 * @param {number} rounds
 */
function printScaleTables([small, large], inProcess, rounds) {
  if (!small?.runs || !large?.runs) return
  log('')
  log(`Medians of ${rounds} round(s); req/s of each round in brackets`)
  log(`| | ${small.size} users req/s | p99 ms | CPU µs/resp. | ${large.size} users req/s | p99 ms | CPU µs/resp. | throughput ratio (≥ 0.90) | p99 ratio (≤ 1.5) | CPU ratio |`)
  log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
  for (const name of Object.keys(small.runs)) {
    const a = small.runs[name]
    const b = large.runs[name]
    log(
      `| ${name} | ${a.rps.toFixed(0)} (${a.each.join(', ')}) | ${a.p99.toFixed(1)} | ${a.cpuPerResponse.toFixed(0)} | ${b.rps.toFixed(0)} (${b.each.join(', ')}) | ${b.p99.toFixed(1)} | ${b.cpuPerResponse.toFixed(0)} | ${(b.rps / a.rps).toFixed(2)} | ${(b.p99 / a.p99).toFixed(2)} | ${(b.cpuPerResponse / a.cpuPerResponse).toFixed(2)} |`,
    )
  }
  log('')
  log(`| | ${small.size} users | ${large.size} users | target at 100k |`)
  log('|---|---:|---:|---|')
  const [inSmall, inLarge] = [inProcess[small.size], inProcess[large.size]]
  log(`| heap per user (in-process, after GC) | ${inSmall.heapBytesPerUser} B | ${inLarge.heapBytesPerUser} B | |`)
  log(`| seeding in-process (median of ${inLarge.rounds}; CPU) | ${inSmall.seedMs} ms (${inSmall.seedCpuMs}) | ${inLarge.seedMs} ms (${inLarge.seedCpuMs}) | |`)
  log(`| seeding | ${small.seeding} | ${large.seeding} | < 2 s |`)
  log(`| RSS after start | ${small.rssStart} MB | ${large.rssStart} MB | < 300 MB |`)
  log(`| GET /__mock/state (first; median of 3) | ${small.stateMs} ms; ${small.stateMedianMs} ms | ${large.stateMs} ms; ${large.stateMedianMs} ms | < 1 s |`)
  log(`| RSS after each of ${small.rss.length} runs | ${small.rss.join(' → ')} | ${large.rss.join(' → ')} | levels off |`)
}

/**
 * bench/heap-per-user.js in a child with --expose-gc (needs the build).
 *
 * @param {number} size
 * @returns {{ users: number, rounds: number, heapBytesPerUser: number, seedMs: number, seedCpuMs: number, rssMb: number, stateMs: number }}
 */
function heapPerUser(size) {
  const script = fileURLToPath(new URL('./heap-per-user.js', import.meta.url))
  const run = spawnSync(process.execPath, ['--expose-gc', script, String(size), '3'], { encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`heap-per-user.js failed: ${run.stderr}`)
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '')
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await scaleTargetRows()
  log(`multi-area-mock scale targets, ${new Date().toISOString()}, load average ${loadAverage()}`)
  for (const line of targetLines(rows)) log(line)
  process.exitCode = rows.every((row) => row.met) ? 0 : 1
}
