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

import { pathToFileURL } from 'node:url'
import { log } from './lib/format.js'
import { median } from './lib/median.js'
import { stopAll } from './lib/processes.js'
import { startSimulator } from './lib/servers.js'
import { pairSettings, runWrkPairs } from './lib/wrk-pairs.js'
import { proxyRows } from './scenarios.js'

/**
 * Runs the proxy pairs and prints the table; answers the exit code.
 *
 * @example
 * process.exitCode = await runProxyBench()
 */
export async function runProxyBench() {
  const settings = pairSettings('proxy overhead')
  if (settings === undefined) return 1
  const { duration, warmup, connections, pairs } = settings
  try {
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
    const problems = []
    const rows = []
    for (const endpoint of endpoints) {
      const targets = { direct: upstream.url, proxied: proxy.url }
      const processes = { proxy: proxy.child.pid, upstream: upstream.child.pid }
      const { runs: sides, problems: found } = await runWrkPairs({ targets, processes, endpoint, pairs, warmup, duration, connections })
      problems.push(...found)
      const m = (/** @type {'direct' | 'proxied'} */ side, /** @type {'rps' | 'p50' | 'p99'} */ field) => median(sides[side].map((result) => result[field]))
      const cpu = (/** @type {'direct' | 'proxied'} */ side, /** @type {string} */ name) => median(sides[side].map((result) => result.cpu[name] ?? NaN))
      rows.push({
        name: endpoint.name,
        direct: m('direct', 'rps'),
        proxied: m('proxied', 'rps'),
        p50: [m('direct', 'p50'), m('proxied', 'p50')],
        p99: [m('direct', 'p99'), m('proxied', 'p99')],
        added: median(sides.proxied.map((result, i) => result.p50 - sides.direct[i].p50)),
        cpuProxy: cpu('proxied', 'proxy') * 1e6,
        cpuUpstream: cpu('direct', 'upstream') * 1e6,
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
