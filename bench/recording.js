// @ts-check
// Recording overhead (`npm run bench:record`): the same proxied requests through a server that proxies Areas A and B (`serve --proxy`) and through one that also records their answers (`--record`), as wrk pairs.
//
//   npm run bench:record                      # build, then 5 pairs per endpoint of (3 s warm-up + 10 s) each side
//   npm run bench -- --record                 # the same, from bench/run.js
//   BENCH_SMOKE=1 BENCH_WARMUP=0 node bench/recording.js   # smoke run (after a build): 1 pair of 1 s each side
//
// Three child processes: the upstream, a proxy (`serve --proxy admin=… --proxy core=…`)
// and a recording proxy (the same with `--record <file>`). A pair is one wrk run against
// each proxy, one after the other, the side that goes first alternating from pair to pair.
// Per endpoint it prints the medians over the pairs: requests per second each way, p50
// and p99 latency, the latency recording adds, and each proxy process's CPU time per
// request: the recording proxy's extra CPU is the recording's own work (reading each
// answer's JSON, checking it against the documented schema, merging its records).
// The reads repeat one request, so the recorder meets the answer it just read again and
// again (it reads such an answer once); the update row changes the price on every request,
// so every answer is read whole. Then it saves the recording and checks it kept the records. Needs wrk; exits non-zero
// on any error, timeout or non-2xx answer.

import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { log, markdownTable } from './lib/format.js'
import { median } from './lib/median.js'
import { loadAverage } from './lib/proc-stats.js'
import { stopAll } from './lib/processes.js'
import { scratchPath } from './lib/scratch.js'
import { startSimulator } from './lib/servers.js'
import { pairSettings, runWrkPairs } from './lib/wrk-pairs.js'
import { proxyRows } from './scenarios.js'

/**
 * Runs the recording pairs and prints the table; answers the exit code.
 *
 * @example
 * process.exitCode = await runRecordingBench()
 */
export async function runRecordingBench() {
  const settings = pairSettings('recording overhead')
  if (settings === undefined) return 1
  const { duration, warmup, connections, pairs } = settings
  try {
    const upstream = await startSimulator([], { name: 'upstream' })
    const proxyFlags = ['--proxy', `admin=${upstream.url}/admin`, '--proxy', `core=${upstream.url}/core`]
    const file = scratchPath('recorded.json')
    const servers = {
      proxied: await startSimulator(proxyFlags, { name: 'proxy' }),
      recorded: await startSimulator([...proxyFlags, '--record', file], { name: 'recording proxy' }),
    }
    log(`upstream ${upstream.url}; proxy ${servers.proxied.url}; recording proxy ${servers.recorded.url} -> ${file}`)
    const users = JSON.parse(await (await fetch(`${upstream.url}/admin/api/v1.2/users?limit=1`)).text())
    const product = '/core/products/prod-1001'
    const reads = [...proxyRows(users[0].id), { key: 'product', name: `GET ${product}`, request: { method: 'GET', path: product } }]
    // Every answer differs (a new price each time), so the recorder reads each one whole: its own work, undiluted.
    const update = {
      key: 'update',
      name: `PUT ${product} (a new price each request)`,
      request: { method: 'PUT', path: product, headers: { 'content-type': 'application/json' } },
      template: '{"name":"Keyboard","description":"Bench","price":{n}.5,"stock":3}',
    }
    const endpoints = [...reads, update]
    for (const endpoint of reads) {
      const [direct, proxied, recorded] = await Promise.all(
        [upstream, servers.proxied, servers.recorded].map(async (server) => (await fetch(`${server.url}${endpoint.request.path}`)).text()),
      )
      if (direct !== proxied || direct !== recorded) throw new Error(`${endpoint.name}: a proxy answered other bytes than the upstream`)
    }
    const problems = []
    const rows = []
    for (const endpoint of endpoints) {
      const targets = { proxied: servers.proxied.url, recorded: servers.recorded.url }
      const processes = { proxied: servers.proxied.child.pid, recorded: servers.recorded.child.pid }
      const { runs: sides, problems: found } = await runWrkPairs({ targets, processes, endpoint, pairs, warmup, duration, connections })
      problems.push(...found)
      const m = (/** @type {'proxied' | 'recorded'} */ side, /** @type {'rps' | 'p50' | 'p99'} */ field) => median(sides[side].map((result) => result[field]))
      // Each side's own process: the CPU it spent per request it proxied.
      const cpu = (/** @type {'proxied' | 'recorded'} */ side) => median(sides[side].map((result) => result.cpu[side] ?? NaN))
      rows.push([
        endpoint.name,
        String(Math.round(m('proxied', 'rps'))),
        String(Math.round(m('recorded', 'rps'))),
        (m('recorded', 'rps') / m('proxied', 'rps')).toFixed(2),
        `${m('proxied', 'p50').toFixed(2)} / ${m('recorded', 'p50').toFixed(2)}`,
        median(sides.recorded.map((result, i) => result.p50 - sides.proxied[i].p50)).toFixed(2),
        `${m('proxied', 'p99').toFixed(2)} / ${m('recorded', 'p99').toFixed(2)}`,
        `${Math.round(cpu('proxied') * 1e6)} / ${Math.round(cpu('recorded') * 1e6)}`,
      ])
    }
    log('')
    for (const line of markdownTable(
      [
        'endpoint',
        'proxied req/s',
        'recorded req/s',
        'ratio',
        'p50 proxied / recorded (ms)',
        'p50 added (ms)',
        'p99 proxied / recorded (ms)',
        'proxy CPU per request, proxied / recorded (µs)',
      ],
      rows,
    ))
      log(line)
    log(`load average at the end: ${loadAverage()}`)
    const saved = /** @type {{ summary: string[] }} */ (await (await fetch(`${servers.recorded.url}/__mock/recording/save`, { method: 'POST' })).json())
    log(`recording saved: ${saved.summary.join(' | ')}`)
    const scenario = JSON.parse(readFileSync(file, 'utf8'))
    if (!(scenario.accounts?.users?.length > 0) || !(scenario.core?.products?.length > 0)) problems.push('the recording kept no users or no products')
    if (problems.length > 0) {
      log(`\nFAIL: ${problems.join('; ')}`)
      return 1
    }
    return 0
  } finally {
    await stopAll()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await runRecordingBench()
