// Proxy overhead: the same requests sent straight to an upstream simulator and
// through a second server that proxies the area to it (`serve --proxy`), as wrk pairs.
//
//   npm run bench:proxy                      # build, then 5 pairs per endpoint of (3 s warm-up + 10 s) each side
//   npm run bench -- --proxy                 # the same, from bench/run.js
//   BENCH_DURATION=1 BENCH_WARMUP=0 BENCH_PAIRS=1 BENCH_CONNECTIONS=10 node bench/proxy.js   # smoke run (after a build)
//
// Two child processes: the upstream (`serve --seed 1 --clock …`) and the proxy
// (`serve --proxy admin=<upstream>/admin`). A pair is one wrk run against the
// upstream directly and one against the proxy, one after the other (the proxy
// loads the upstream too, so they cannot share the machine at the same time),
// the side that goes first alternating from pair to pair. Per endpoint it prints
// the medians over the pairs: requests per second each way, p50 and p99
// latency each way and the latency the proxy adds, and the proxy process's CPU
// time per request (its own cost, beside the upstream's). Needs wrk (Debian
// package `wrk`); exits non-zero on any error, timeout or non-2xx answer.

import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { median } from './median.js'

const HOST = '127.0.0.1'
const CLI = fileURLToPath(new URL('../bin/multi-area-mock.js', import.meta.url))
const SIM_ARGS = ['serve', '--port', '0', '--host', HOST, '--quiet', '--seed', '1', '--clock', '2026-01-01T00:00:00Z']
const BANNER = /multi-area-mock listening on (http:\/\/127\.0\.0\.1:\d+)/
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100

/**
 * Runs the proxy pairs and prints the table; answers the exit code.
 *
 * @example
 * process.exitCode = await runProxyBench({ log: console.log })
 */
export async function runProxyBench({ log = (line) => process.stdout.write(`${line}\n`) } = {}) {
  const duration = number('BENCH_DURATION', 10)
  const warmup = number('BENCH_WARMUP', 3)
  const connections = number('BENCH_CONNECTIONS', 50)
  const pairs = number('BENCH_PAIRS', 5)
  if (spawnSync('wrk', ['-v']).error) {
    log('bench: wrk is not installed (Debian/Ubuntu: apt-get install -y wrk); the proxy pairs need it.')
    return 1
  }
  const scratch = mkdtempSync(join(os.tmpdir(), 'multi-area-mock-proxy-bench-'))
  const children = []
  try {
    log(`proxy overhead: wrk -t1 -c${connections}, ${warmup} s warm-up + ${duration} s per side, ${pairs} pair(s) per endpoint, medians`)
    log(`node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`)
    const upstream = await startChild(children, SIM_ARGS)
    const proxy = await startChild(children, [...SIM_ARGS, '--proxy', `admin=${upstream.url}/admin`])
    log(`upstream ${upstream.url} (pid ${upstream.child.pid}); proxy ${proxy.url} (pid ${proxy.child.pid}) -> ${upstream.url}/admin`)
    const users = JSON.parse(await (await fetch(`${upstream.url}/admin/api/v1.2/users?limit=1`)).text())
    const endpoints = [
      { key: 'one', name: 'GET /admin/api/v1.2/users/{id}', path: `/admin/api/v1.2/users/${users[0].id}` },
      { key: 'list', name: 'GET /admin/api/v1.2/users (20)', path: '/admin/api/v1.2/users' },
      { key: 'list100', name: 'GET /admin/api/v1.2/users?limit=100', path: '/admin/api/v1.2/users?limit=100' },
    ]
    // Both ways must answer the same bytes before anything is measured.
    for (const endpoint of endpoints) {
      const [direct, proxied] = await Promise.all([upstream, proxy].map(async (server) => (await fetch(`${server.url}${endpoint.path}`)).text()))
      if (direct !== proxied) throw new Error(`${endpoint.name}: the proxy answered other bytes than the upstream`)
    }
    const problems = []
    const rows = []
    for (const endpoint of endpoints) {
      const sides = { direct: [], proxied: [] }
      for (let pair = 0; pair < pairs; pair++) {
        for (const side of pair % 2 === 0 ? ['direct', 'proxied'] : ['proxied', 'direct']) {
          const url = side === 'direct' ? upstream.url : proxy.url
          if (warmup > 0) await wrk(scratch, url, endpoint, warmup, connections)
          const before = { proxy: cpuSeconds(proxy.child.pid), upstream: cpuSeconds(upstream.child.pid) }
          const result = await wrk(scratch, url, endpoint, duration, connections)
          result.cpuProxy = (cpuSeconds(proxy.child.pid) - before.proxy) / result.total
          result.cpuUpstream = (cpuSeconds(upstream.child.pid) - before.upstream) / result.total
          if (result.errors + result.timeouts + result.non2xx > 0) problems.push(`${endpoint.name} ${side}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`)
          sides[side].push(result)
        }
      }
      const m = (side, field) => median(sides[side].map((result) => result[field]))
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
    log('| endpoint | direct req/s | proxied req/s | ratio | p50 direct / proxied (ms) | p50 added (ms) | p99 direct / proxied (ms) | proxy CPU per request (µs) | upstream CPU per request, direct (µs) |')
    log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
    for (const row of rows) {
      log(`| ${row.name} | ${Math.round(row.direct)} | ${Math.round(row.proxied)} | ${(row.proxied / row.direct).toFixed(2)} | ${row.p50[0].toFixed(2)} / ${row.p50[1].toFixed(2)} | ${row.added.toFixed(2)} | ${row.p99[0].toFixed(2)} / ${row.p99[1].toFixed(2)} | ${Math.round(row.cpuProxy)} | ${Math.round(row.cpuUpstream)} |`)
    }
    if (problems.length > 0) {
      log(`\nFAIL: ${problems.join('; ')}`)
      return 1
    }
    return 0
  } finally {
    await Promise.all(children.map((child) => stop(child)))
    rmSync(scratch, { recursive: true, force: true })
  }
}

function number(name, fallback) {
  const value = process.env[name] === undefined ? fallback : Number(process.env[name])
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of 0 or more`)
  return value
}

/** One wrk run; `done` prints the figures as one JSON line. */
async function wrk(scratch, url, endpoint, seconds, connections) {
  const script = join(scratch, `${endpoint.key}-${Date.now()}-${Math.random().toString(36).slice(2)}.lua`)
  writeFileSync(
    script,
    [
      `wrk.path = ${JSON.stringify(endpoint.path)}`,
      'done = function(summary, latency, requests)',
      '  local e = summary.errors',
      '  io.write(string.format("BENCH_JSON {\\"requests\\":%d,\\"duration\\":%d,\\"errors\\":%d,\\"status\\":%d,\\"timeout\\":%d,\\"p50\\":%d,\\"p99\\":%d}\\n",',
      '    summary.requests, summary.duration, e.connect + e.read + e.write, e.status, e.timeout, latency:percentile(50), latency:percentile(99)))',
      'end',
      '',
    ].join('\n'),
  )
  const child = spawn('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, url], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk))
  const code = await new Promise((resolve) => child.once('close', resolve))
  const line = /BENCH_JSON (\{.*\})/.exec(out)
  if (code !== 0 || !line) throw new Error(`wrk failed (${code}) on ${endpoint.name}:\n${out}`)
  const figures = JSON.parse(line[1])
  return { rps: figures.requests / (figures.duration / 1e6), total: figures.requests, errors: figures.errors, timeouts: figures.timeout, non2xx: figures.status, p50: figures.p50 / 1000, p99: figures.p99 / 1000 }
}

/** User + system CPU seconds of a process (Linux /proc). */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
}

function startChild(children, args) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}${err}`)), 15_000)
    child.stdout.on('data', () => {
      const match = BANNER.exec(out)
      if (!match) return
      clearTimeout(timer)
      resolve({ url: match[1], child })
    })
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${out}${err}`)))
  })
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
  child.kill('SIGTERM')
  await exited
  clearTimeout(timer)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await runProxyBench()
