// @ts-check
// The servers every bench loads: the simulator's CLI (`serve`) and the bare node:http baselines, each a child process on a free loopback port.

import { fileURLToPath } from 'node:url'
import { startChild } from './processes.js'

/** @typedef {import('./processes.js').Server} Server */

export const HOST = '127.0.0.1'
/** This checkout's CLI (needs the build). */
export const CLI = fileURLToPath(new URL('../../bin/multi-area-mock.js', import.meta.url))
/** The same world in every server: seed 1, the clock frozen, no request log on stdout. */
export const SERVE_ARGS = ['serve', '--port', '0', '--host', HOST, '--quiet', '--seed', '1', '--clock', '2026-01-01T00:00:00Z']
const SIMULATOR_BANNER = /multi-area-mock listening on (http:\/\/127\.0\.0\.1:\d+)/
const BASELINE = fileURLToPath(new URL('../baseline-server.js', import.meta.url))
const BASELINE_BANNER = /baseline listening on (http:\/\/127\.0\.0\.1:\d+)/

/**
 * Starts `serve` with the bench's world and `extra` flags; resolves once it listens.
 *
 * @example
 * const server = await startSimulator(['--dispatch', 'msw'], { name: 'simulator (msw)' })
 * @param {string[]} [extra] more `serve` flags
 * @param {{ cli?: string, name?: string, timeoutMs?: number }} [options]
 * @returns {Promise<Server>}
 */
export function startSimulator(extra = [], { cli = CLI, name = 'simulator', timeoutMs = 15_000 } = {}) {
  return startChild(name, process.execPath, [cli, ...SERVE_ARGS, ...extra], SIMULATOR_BANNER, {}, timeoutMs)
}

/**
 * Starts `serve --replay <bundle>`: the bundle's world, none of the bench's world flags (a replay refuses them).
 *
 * @example
 * const server = await startReplay('bundle.json')
 * @param {string} bundle
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<Server>}
 */
export function startReplay(bundle, { timeoutMs = 120_000 } = {}) {
  return startChild('replay', process.execPath, [CLI, 'serve', '--port', '0', '--host', HOST, '--quiet', '--replay', bundle], SIMULATOR_BANNER, {}, timeoutMs)
}

/**
 * Starts bench/baseline-server.js answering `fixtures` (its JSON); `batched`: ending each turn's answers together, as the simulator's server does.
 *
 * @param {string} fixtures
 * @param {{ batched?: boolean, parse?: boolean }} [options]
 * @returns {Promise<Server>}
 */
export function startBaseline(fixtures, { batched = false, parse = false } = {}) {
  const env = { BENCH_BASELINE_FIXTURES: fixtures, ...(batched ? { BENCH_BASELINE_BATCH: '1' } : {}), ...(parse ? { BENCH_BASELINE_PARSE: '1' } : {}) }
  return startChild(batched ? 'batched baseline' : 'baseline', process.execPath, [BASELINE], BASELINE_BANNER, env)
}

/**
 * What the server wrote to stderr, as a problem line (at most 10 lines), or undefined when nothing.
 *
 * @param {string} label
 * @param {Server} server
 */
export function stderrProblem(label, server) {
  const text = server.stderr().trim()
  return text ? `simulator (${label}) wrote to stderr:\n${text.split('\n').slice(0, 10).join('\n')}` : undefined
}
