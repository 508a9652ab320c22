// @ts-check
// The join of the replicas bench: a new replica started against a store holding a long log, timed until it answers, and checked to hold the same world.

import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { spawnTracked, startChild } from './lib/processes.js'
import { scratchPath } from './lib/scratch.js'
import { CLI, HOST, SERVE_ARGS, startSimulator } from './lib/servers.js'
import { wrkScript } from './lib/wrk.js'
import { freePort, startRedis, stopAllOf } from './replica-processes.js'

/** @typedef {{ commands: number, prefillS: number, bannerMs: number, healthMs: number, agree: boolean, bytes: number }} Join */

const BANNER = /multi-area-mock listening on (http:\/\/127\.0\.0\.1:\d+)/

/**
 * Redis and a replica; `commands` writes through it; then a second replica, timed from its spawn to its first health 200, and both
 * worlds compared. What goes wrong is a line in `problems`.
 *
 * @example
 * const join = await joinAfter(100_000, { connections: 50, problems })
 * @returns {Promise<Join>}
 */
export async function joinAfter(/** @type {number} */ commands, /** @type {{ connections: number, problems: string[] }} */ { connections, problems }) {
  const redis = await startRedis()
  const first = await startSimulator(['--store', redis.url], { name: 'replica 1', timeoutMs: 60_000 })
  const prefillS = await prefill(first.url, commands, connections, problems)
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
  await stopAllOf([first, second, redis], 'join', problems)
  return { commands: inStore, prefillS, bannerMs: second.startupMs, healthMs, agree, bytes: Buffer.byteLength(a) }
}

/**
 * Writes `commands` through a replica with wrk, users and product updates alternately; answers the seconds it took. wrk's thread
 * stops once that many are answered (those still in flight may add up to BENCH_CONNECTIONS - 1), and prints a line: wrk's main
 * thread sleeps for all of `-d` whatever its threads do, so the bench interrupts it (SIGINT ends the sleep; wrk then reports).
 */
async function prefill(/** @type {string} */ url, /** @type {number} */ commands, /** @type {number} */ connections, /** @type {string[]} */ problems) {
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
  const wrk = spawnTracked('wrk', ['-t1', `-c${connections}`, `-d${Math.max(60, Math.ceil(commands / 100))}s`, '--timeout', '10s', '-s', script, url])
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
