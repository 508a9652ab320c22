// @ts-check
// One load run against one server with the server's CPU time meanwhile: wrk when installed (the load generator), else autocannon.

import { runAutocannon } from './autocannon.js'
import { cpuSeconds } from './proc-stats.js'
import { runWrk, wrkInstalled } from './wrk.js'

/**
 * A run's figures and the CPU seconds the server (all its threads) used over its wall time.
 *
 * @typedef {import('./wrk.js').LoadFigures & { cpu: { wall: number, server: number | undefined } }} LoadResult
 */
/**
 * What a row sends, to either driver: wrk's script (`template`, `signedFile`) or autocannon's `next` body.
 *
 * @typedef {object} Loadable
 * @property {string} name
 * @property {import('./wrk.js').HttpRequest} request
 * @property {() => string} [template] a fresh wrk template per run
 * @property {string} [signedFile]
 * @property {() => string} [next]
 */

/** @type {'wrk' | 'autocannon' | undefined} */
let chosen

/** `wrk` when installed, else `autocannon` (looked up once). */
export function driver() {
  chosen ??= wrkInstalled() ? 'wrk' : 'autocannon'
  return chosen
}

/**
 * One load run against `server`, with the CPU time the server used meanwhile.
 *
 * @param {import('./processes.js').Server} server
 * @param {Loadable} row
 * @param {number} seconds
 * @param {number} signedOffset where a pre-signed row starts in its file
 * @param {number} connections
 * @returns {Promise<LoadResult>}
 */
export async function load(server, row, seconds, signedOffset, connections) {
  const serverCpu0 = cpuSeconds(server.child.pid)
  const started = performance.now()
  const result =
    driver() === 'wrk'
      ? await runWrk(server.url, { request: row.request, template: row.template?.(), signedFile: row.signedFile, signedOffset }, seconds, connections, row.name)
      : await runAutocannon(server.url, row.request, row.next, seconds, connections)
  const wall = (performance.now() - started) / 1000
  const serverCpu1 = cpuSeconds(server.child.pid)
  return { ...result, cpu: { wall, server: serverCpu0 === undefined || serverCpu1 === undefined ? undefined : serverCpu1 - serverCpu0 } }
}

/**
 * Server CPU µs per response of one run.
 *
 * @param {LoadResult} result
 */
export function cpuPerResponse(result) {
  return result.cpu.server === undefined ? NaN : (result.cpu.server / result.total) * 1e6
}
