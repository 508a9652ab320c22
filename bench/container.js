// @ts-check
// The container image's row (issue 47): its own layers over node:20-slim, and the time from `podman run` to a healthy server.

/**
 * What the image of the repository's Dockerfile costs (issue 47: at most 30 MB
 * over its base, healthy within 1.5 s of `run`), with Debian's podman:
 *
 * - builds the image as written (`podman build --pull=never --format docker`;
 *   the layer cache may serve it), after the local base image when absent
 *   (scripts/container/node-base-image.sh);
 * - size: the image's size less node:20-slim's, as `podman image inspect`
 *   gives them (uncompressed), and the layers `podman history` lists above the base;
 * - start: `podman run -d -p 127.0.0.1:<port>:4000` timed from the spawn of
 *   `podman run` until `GET /__mock/health` answers 200 from this machine
 *   (what the image's HEALTHCHECK asks, polled every 20 ms), 7 fresh
 *   containers after 1 not counted, each removed; the median, with the
 *   fastest and the slowest;
 * - stop, for information: `podman stop` of one of them, SIGTERM to exit.
 *
 * podman reads scripts/container/containers.conf (runc, ulimits within the
 * host's), as the tests do.
 *
 *   npm run bench:container            # prints the rows as a table
 *
 * @example
 * const rows = await measureContainer({ runs: 7 })
 */
import { execFile, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { log, targetLines } from './lib/format.js'
import { median } from './lib/median.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PODMAN = '/usr/bin/podman'
const IMAGE = 'localhost/multi-area-mock:bench'
const BASE = 'docker.io/library/node:20-slim'
const SIZE_LIMIT_MB = 30
const START_LIMIT_MS = 1500
const env = { ...process.env, CONTAINERS_CONF: `${ROOT}scripts/container/containers.conf` }
const run = promisify(execFile)

/**
 * `podman <args>`: its stdout.
 *
 * @param {string[]} args
 */
async function podman(args) {
  const { stdout } = await run(PODMAN, args, { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' })
  return stdout.trim()
}

/** A 127.0.0.1 port nobody listens on now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = /** @type {import('node:net').AddressInfo} */ (probe.address())
      probe.close(() => resolve(address.port))
    })
  })
}

/**
 * One container: milliseconds from the spawn of `podman run` to the first 200 of the health endpoint.
 *
 * @returns {Promise<{ ms: number, id: string }>}
 */
async function startOnce() {
  const port = await freePort()
  const spawned = performance.now()
  const child = spawn(PODMAN, ['run', '-d', '-p', `127.0.0.1:${port}:4000`, IMAGE], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'ignore'] })
  let id = ''
  child.stdout.setEncoding('utf8').on('data', (chunk) => (id += chunk))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const until = spawned + 30_000
  while (performance.now() < until) {
    const ok = await fetch(`http://127.0.0.1:${port}/__mock/health`, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.status === 200,
      () => false,
    )
    if (ok) {
      const ms = performance.now() - spawned
      await exited
      return { ms, id: id.trim() }
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  await exited
  throw new Error(`container ${id.trim()} was not healthy within 30 s`)
}

/**
 * Builds the image and measures it; resolves to bench rows.
 *
 * @param {{ runs?: number, warmup?: number }} [options]
 * @returns {Promise<import('./lib/format.js').TargetRow[]>}
 */
export async function measureContainer({ runs = 7, warmup = 1 } = {}) {
  await run(`${ROOT}scripts/container/node-base-image.sh`, [], { cwd: ROOT, env })
  const building = performance.now()
  await podman(['build', '--pull=never', '--format', 'docker', '-t', IMAGE, '.'])
  const buildS = (performance.now() - building) / 1000
  const size = Number(await podman(['image', 'inspect', IMAGE, '--format', '{{.Size}}']))
  const baseSize = Number(await podman(['image', 'inspect', BASE, '--format', '{{.Size}}']))
  // `podman history` lists the newest layer first: the image's own are those above the base's.
  const history = (await podman(['history', IMAGE, '--format', '{{.Size}}'])).split('\n')
  const baseLayers = (await podman(['history', BASE, '--format', '{{.Size}}'])).split('\n').length
  const layers = history.slice(0, history.length - baseLayers).filter((bytes) => bytes !== '0 B')
  const ownMb = (size - baseSize) / 1e6
  /** @type {number[]} */
  const times = []
  /** @type {number} */
  let stopMs = NaN
  for (let i = 0; i < warmup + runs; i++) {
    const { ms, id } = await startOnce()
    if (i >= warmup) times.push(ms)
    if (i === warmup + runs - 1) {
      const stopping = performance.now()
      await podman(['stop', id])
      stopMs = performance.now() - stopping
    }
    await podman(['rm', '-f', '-t', '0', id])
  }
  const sorted = [...times].sort((a, b) => a - b)
  const ms = (/** @type {number} */ value) => `${Math.round(value)} ms`
  return [
    {
      target: "the image's own layers over node:20-slim",
      limit: `≤ ${SIZE_LIMIT_MB} MB`,
      measured:
        `${ownMb.toFixed(1)} MB (${(size / 1e6).toFixed(1)} MB image, ${(baseSize / 1e6).toFixed(1)} MB base, uncompressed; ` +
        `layers above the base: ${layers.join(' + ')}; built in ${buildS.toFixed(1)} s)`,
      met: ownMb <= SIZE_LIMIT_MB,
    },
    {
      target: '`podman run` to a healthy server (GET /__mock/health 200 from this machine)',
      limit: `≤ ${START_LIMIT_MS} ms`,
      measured: `${ms(median(times))} (median of ${runs} fresh containers; fastest ${ms(sorted[0] ?? NaN)}, slowest ${ms(sorted.at(-1) ?? NaN)})`,
      met: median(times) <= START_LIMIT_MS,
    },
    {
      target: '`podman stop` (SIGTERM) to exit',
      limit: '-',
      measured: ms(stopMs),
      met: null,
    },
  ]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) for (const line of targetLines(await measureContainer())) log(line)
