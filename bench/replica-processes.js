// @ts-check
// The processes of the replicas bench besides the replicas: Debian's redis-server on a free loopback port, and stopping a run's processes after checking them.

import { mkdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { assertAlive, startChild, stopChild } from './lib/processes.js'
import { scratchPath } from './lib/scratch.js'
import { HOST, stderrProblem } from './lib/servers.js'

/** @typedef {import('./lib/processes.js').Server} Server */

/**
 * Every process must still run and have written nothing to stderr (else a line in `problems`); then each is stopped, Redis last.
 *
 * @example
 * await stopAllOf([first, second, redis], 'join', problems)
 */
export async function stopAllOf(/** @type {Server[]} */ all, /** @type {string} */ label, /** @type {string[]} */ problems) {
  for (const server of all) {
    assertAlive(label, server, problems)
    const stderr = stderrProblem(label, server)
    if (stderr) problems.push(stderr)
  }
  for (const server of all) await stopChild(server)
}

/**
 * Debian's redis-server on a free loopback port in a fresh folder, durable as the tests ask; resolves once it accepts connections.
 *
 * @example
 * const redis = await startRedis() // redis.url: redis://127.0.0.1:<port>
 */
export async function startRedis() {
  const dir = scratchPath('redis')
  mkdirSync(dir)
  const port = await freePort()
  const args = ['--port', String(port), '--bind', HOST, '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always']
  args.push('--protected-mode', 'yes', '--daemonize', 'no', '--logfile', '', '--loglevel', 'notice')
  return { ...(await startChild('redis-server', '/usr/bin/redis-server', args, /Ready to (accept) connections/)), url: `redis://${HOST}:${port}` }
}

/**
 * A port nothing listens on now (the kernel's pick, closed again).
 *
 * @example
 * const port = await freePort()
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, HOST, () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}
