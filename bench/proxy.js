// @ts-check
// Proxy overhead (`npm run bench:proxy`): the same requests straight to an upstream simulator and through a second server that proxies Area A to it (`serve --proxy`), as wrk pairs.
//
//   npm run bench:proxy                      # build, then 5 pairs per endpoint of (3 s warm-up + 10 s) each side
//   npm run bench -- --proxy                 # the same, from bench/run.js
//   BENCH_SMOKE=1 BENCH_WARMUP=0 node bench/proxy.js   # smoke run (after a build): 1 pair of 1 s each side
//
// Two child processes: the upstream and the proxy (`serve --proxy admin=<upstream>/admin`).
// A pair is one wrk run against the upstream directly and one against the proxy, one
// after the other (the proxy loads the upstream too, so they cannot share the machine
// at the same time), the side that goes first alternating from pair to pair. Per
// endpoint (bench/scenarios.js's proxyRows) it prints the medians over the pairs:
// requests per second each way, p50 and p99 latency each way and the latency the proxy
// adds, and the proxy process's CPU time per request (its own cost, beside the
// upstream's). Needs wrk; exits non-zero on any error, timeout or non-2xx answer.

import os from 'node:os'
import { pathToFileURL } from 'node:url'
import { log } from './lib/format.js'
import { median } from './lib/median.js'
import { cpuSeconds, loadAverage } from './lib/proc-stats.js'
import { stopAll } from './lib/processes.js'
import { startSimulator } from './lib/servers.js'
import { runWrk, wrkInstalled } from './lib/wrk.js'
import { proxyRows } from './scenarios.js'
import { setting } from './switches.js'

/**
 * @typedef {import('./lib/wrk.js').LoadFigures & { cpuProxy: number, cpuUpstream: number }} SideRun
 */

/**
 * Runs the proxy pairs and prints the table; answers the exit code.
 *
 * @example
 * process.exitCode = await runProxyBench()
 */
export async function runProxyBench() {
  const duration = setting('BENCH_DURATION')
  const warmup = setting('BENCH_WARMUP')
  const connections = setting('BENCH_CONNECTIONS')
  const pairs = setting('BENCH_PAIRS')
  if (!wrkInstalled()) {
    log('bench: wrk is not installed (Debian/Ubuntu: apt-get install -y wrk); the proxy pairs need it.')
    return 1
  }
  try {
    log(`proxy overhead: wrk -t1 -c${connections}, ${warmup} s warm-up + ${duration} s per side, ${pairs} pair(s) per endpoint, medians`)
    log(`node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAverage()}`)
    const upstream = await startSimulator([], { name: 'upstream' })
    const proxy = await startSimulator(['--proxy', `admin=${upstream.url}/admin`], { name: 'proxy' })
    log(`upstream ${upstream.url} (pid ${upstream.child.pid}); proxy ${proxy.url} (pid ${proxy.child.pid}) -> ${upstream.url}/admin`)
    const users = JSON.parse(await (await fetch(`${upstream.url}/admin/api/v1.2/users?limit=1`)).text())
    const endpoints = proxyRows(users[0].id)
    // Both ways must answer the same bytes before anything is measured.
    for (const endpoint of endpoints) {
      const [direct, proxied] = await Promise.all([upstream, proxy].map(async (server) => (await fetch(`${server.url}${endpoint.request.path}`)).text()))
      if (direct !== proxied) throw new Error(`${endpoint.name}: the proxy answered other bytes than the upstream`)
    }
    const cpu = (/** @type {number | undefined} */ pid) => cpuSeconds(pid) ?? NaN
    const problems = []
    const rows = []
    for (const endpoint of endpoints) {
      /** @type {{ direct: SideRun[], proxied: SideRun[] }} */
      const sides = { direct: [], proxied: [] }
      for (let pair = 0; pair < pairs; pair++) {
        /** @type {Array<'direct' | 'proxied'>} */
        const order = pair % 2 === 0 ? ['direct', 'proxied'] : ['proxied', 'direct']
        for (const side of order) {
          const url = side === 'direct' ? upstream.url : proxy.url
          if (warmup > 0) await runWrk(url, endpoint, warmup, connections, endpoint.name)
          const before = { proxy: cpu(proxy.child.pid), upstream: cpu(upstream.child.pid) }
          const result = await runWrk(url, endpoint, duration, connections, endpoint.name)
          const cpuProxy = (cpu(proxy.child.pid) - before.proxy) / result.total
          const cpuUpstream = (cpu(upstream.child.pid) - before.upstream) / result.total
          if (result.errors + result.timeouts + result.non2xx > 0)
            problems.push(`${endpoint.name} ${side}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`)
          sides[side].push({ ...result, cpuProxy, cpuUpstream })
        }
      }
      const m = (/** @type {'direct' | 'proxied'} */ side, /** @type {'rps' | 'p50' | 'p99' | 'cpuProxy' | 'cpuUpstream'} */ field) =>
        median(sides[side].map((result) => result[field]))
      rows.push({
        name: endpoint.name,
        direct: m('direct', 'rps'),
        proxied: m('proxied', 'rps'),
        p50: [m('direct', 'p50'), m('proxied', 'p50')],
        p99: [m('direct', 'p99'), m('proxied', 'p99')],
        added: median(sides.proxied.map((result, i) => result.p50 - sides.direct[i].p50)),
        cpuProxy: m('proxied', 'cpuProxy') * 1e6,
        cpuUpstream: m('direct', 'cpuUpstream') * 1e6,
      })
    }
    log('')
    log(
      '| endpoint | direct req/s | proxied req/s | ratio | p50 direct / proxied (ms) | p50 added (ms) | p99 direct / proxied (ms) | proxy CPU per request (µs) | upstream CPU per request, direct (µs) |',
    )
    log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
    for (const row of rows) {
      log(
        `| ${row.name} | ${Math.round(row.direct)} | ${Math.round(row.proxied)} | ${(row.proxied / row.direct).toFixed(2)} | ${row.p50[0].toFixed(2)} / ${row.p50[1].toFixed(2)} | ${row.added.toFixed(2)} | ${row.p99[0].toFixed(2)} / ${row.p99[1].toFixed(2)} | ${Math.round(row.cpuProxy)} | ${Math.round(row.cpuUpstream)} |`,
      )
    }
    if (problems.length > 0) {
      log(`\nFAIL: ${problems.join('; ')}`)
      return 1
    }
    return 0
  } finally {
    await stopAll()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await runProxyBench()
