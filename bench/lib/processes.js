// @ts-check
// Child processes of a bench run (servers, wrk): started, waited for, and stopped on any kind of exit, so none outlives the bench.

import { spawn } from 'node:child_process'

/**
 * A started server: its URL (from its banner) and how it came up.
 *
 * @typedef {object} Server
 * @property {string} url
 * @property {import('node:child_process').ChildProcess} child
 * @property {() => string} stderr everything it wrote to stderr so far
 * @property {Promise<unknown>} exited resolves with its exit code or signal
 * @property {number} spawnedAt performance.now() at the spawn
 * @property {number} startupMs from the spawn to the banner: module loading, seeding and listening
 * @property {string | undefined} seeding the simulator's own "ready in N ms", if it printed one
 */

/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set()

process.on('exit', () => {
  for (const child of children) if (running(child)) child.kill('SIGKILL')
})
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    process.stderr.write(`\nbench: ${signal}, stopping servers\n`)
    void stopAll().finally(() => process.exit(130))
  })
}

/** @param {import('node:child_process').ChildProcess} child */
function running(child) {
  return child.exitCode === null && child.signalCode === null
}

/**
 * Spawns a child whose output is collected, and tracks it until it is stopped.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {Record<string, string>} [env] added to this process's environment
 */
export function spawnTracked(command, args, env = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
  children.add(child)
  const output = { out: '', err: '' }
  child.stdout.setEncoding('utf8').on('data', (chunk) => (output.out += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk) => (output.err += chunk))
  // 'close', not 'exit': the process can exit before its output has been read (seen with two wrk at once).
  const closed = new Promise((resolve) => child.once('close', (code, signal) => resolve(code ?? signal)))
  void closed.then(() => children.delete(child))
  return { child, output, closed }
}

/**
 * Spawns a server and resolves once its banner on stdout names the URL.
 *
 * @example
 * const server = await startChild('baseline', process.execPath, [script], /listening on (http:\S+)/)
 * @param {string} name
 * @param {string} command
 * @param {string[]} args
 * @param {RegExp} banner its first group is the URL
 * @param {Record<string, string>} [env]
 * @param {number} [timeoutMs]
 * @returns {Promise<Server>}
 */
export function startChild(name, command, args, banner, env = {}, timeoutMs = 15_000) {
  const spawnedAt = performance.now()
  const { child, output } = spawnTracked(command, args, env)
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs} ms\nstdout: ${output.out}\nstderr: ${output.err}`)), timeoutMs)
    const onData = () => {
      const match = banner.exec(output.out)
      if (!match) return
      clearTimeout(timer)
      child.stdout?.off('data', onData)
      resolve({ url: match[1], child, stderr: () => output.err, exited, spawnedAt, startupMs: performance.now() - spawnedAt, seeding: /ready in (\d+ ms)/.exec(output.out)?.[1] })
    }
    child.stdout?.on('data', onData)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`${name} exited (${code}) before listening\nstdout: ${output.out}\nstderr: ${output.err}`))
    })
  })
}

/**
 * SIGTERM one child and wait for it to exit (SIGKILL after 3 s).
 *
 * @param {Pick<Server, 'child' | 'exited'>} server
 */
export async function stopChild({ child, exited }) {
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
  child.kill('SIGTERM')
  await exited
  clearTimeout(timer)
  children.delete(child)
}

/** SIGTERM every child still running, SIGKILL after 3 s. */
export async function stopAll() {
  await Promise.all(
    [...children].map(async (child) => {
      if (!running(child)) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
      await exited
      clearTimeout(timer)
    }),
  )
}

/**
 * A server that died mid-benchmark ends it at once: nothing after would mean anything.
 *
 * @param {string} label
 * @param {Server} server
 * @param {string[]} problems those found so far, for the message
 */
export function assertAlive(label, server, problems) {
  const { child } = server
  if (running(child)) return
  const stderr = server.stderr().trim()
  throw new Error(
    `${label} (pid ${child.pid}) exited during the benchmark (${child.exitCode ?? child.signalCode})` +
      (stderr ? `\nstderr:\n${stderr.split('\n').slice(-20).join('\n')}` : '') +
      (problems.length ? `\nproblems so far:\n${problems.map((problem) => `  - ${problem}`).join('\n')}` : ''),
  )
}
