// @ts-check
// Soak (`npm run soak`): a long mixed workload over every area and the control API against the real CLI server, to show that nothing leaks.
//
//   npm run soak                                   # build, then 1,000,000 requests (~10 min on 2 cores)
//   SOAK_REQUESTS=50000 node bench/soak.js         # a shorter run (after a build)
//   BENCH_SMOKE=1 node bench/soak.js               # smoke run: 2,000 requests (its RSS verdict means nothing)
//
// The journal is on, as by default.
//
// The server is a child process; this process only drives the load (node:http
// keep-alive connections). Every request has one expected status; anything
// else, a connection error or a timeout counts as an error. Reported: throughput,
// errors, the server's RSS every 100k requests, its open file descriptors at the
// end, and p99 latency per route. Exits non-zero on any error, or when RSS still
// grows by 5% or more over the last third of the run.
//
// The world stays bounded: what a cycle creates it deletes (users), or a reset
// at a quiet point every SOAK_RESET_EVERY requests removes it (delegations,
// notifications, readings); particles are measured, never created. See
// bench/README.md for the figures of one run.

import { readdirSync } from 'node:fs'
import { Agent } from 'node:http'
import { log } from './lib/format.js'
import { send as sendRequest } from './lib/http-client.js'
import { rssKiB } from './lib/proc-stats.js'
import { stopAll } from './lib/processes.js'
import { startSimulator } from './lib/servers.js'
import { setting } from './switches.js'

const REQUESTS = setting('SOAK_REQUESTS')
const CONNECTIONS = setting('SOAK_CONNECTIONS')
const SAMPLE_EVERY = setting('SOAK_SAMPLE_EVERY')
const RESET_EVERY = setting('SOAK_RESET_EVERY')
const PASSWORD = 'Passw0rd!'

if (setting('BENCH_SMOKE')) log('BENCH_SMOKE=1: a smoke run (bench/switches.js gives its settings); it shows the soak runs, its RSS verdict means nothing')
const server = await startSimulator([], { name: 'soak server' })
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
const { port } = new URL(server.url)
const pid = server.child.pid

/**
 * One request with a JSON body (if any); never rejects: errors are counted.
 *
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {Record<string, string>} [headers]
 */
function send(method, path, body, headers = {}) {
  return sendRequest(agent, port, method, path, body === undefined ? undefined : JSON.stringify(body), { headers, timeoutMs: 30_000 })
}

// What the seeded world holds, to read and change it without growing it.
const state = (await send('GET', '/__mock/state')).body
/** @type {Array<{ id: string, username: string, status: string }>} */
const users = state.accounts.users.filter((/** @type {{ status: string }} */ user) => user.status === 'active')
/** @type {string[]} */
const products = state.core.products.map((/** @type {{ id: string }} */ product) => product.id)
/** @type {string[]} */
const particles = state.quantum.pairs.flatMap((/** @type {{ particles: Array<{ id: string }> }} */ pair) => pair.particles.map((particle) => particle.id))
/** @type {string[]} */
const resources = state.general.resources.map((/** @type {{ id: string }} */ resource) => resource.id)
/** @type {string[]} */
const tokens = state.ledger.tokens.map((/** @type {{ token_id: string }} */ token) => token.token_id)
/** @type {string[]} */
const validators = state.ledger.validators
  .filter((/** @type {{ status: string }} */ validator) => validator.status === 'active')
  .map((/** @type {{ address: string }} */ validator) => validator.address)
const loginReply = await send('POST', '/general/auth/login', { username: users[0].username, password: PASSWORD })
if (loginReply.status !== 200) throw new Error(`login failed: ${loginReply.status}`)
const bearer = { authorization: `Bearer ${loginReply.body.token}` }

/**
 * Per route: latencies (ms); and the counts of what came back.
 *
 * @type {Map<string, number[]>}
 */
const latencies = new Map()
let done = 0
let errors = 0
/** @type {string[]} */
const errorSamples = []
let unique = 0

/**
 * One request of the mix and its one expected status; anything else counts as an error.
 *
 * @param {string} route
 * @param {number} status
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {Record<string, string>} [headers]
 */
async function expect(route, status, method, path, body, headers) {
  const reply = await send(method, path, body, headers)
  done++
  let list = latencies.get(route)
  if (!list) latencies.set(route, (list = []))
  list.push(reply.ms)
  if (reply.status !== status) {
    errors++
    if (errorSamples.length < 10) errorSamples.push(`${route}: expected ${status}, got ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`)
  }
  return reply
}

/**
 * @template T
 * @param {T[]} list
 * @param {number} n
 */
const pick = (list, n) => list[n % list.length]
const signature = (/** @type {number} */ n) => `0x${'50a6'.padEnd(64, '0')}${n.toString(16).padStart(64, '0')}1b`

/**
 * One step of the mix: about twenty kinds of request, reads most often, as an app would send them.
 *
 * @param {number} n
 */
async function step(n) {
  switch (n % 20) {
    case 0:
    case 1:
      return expect('GET /admin/api/v1.2/users', 200, 'GET', `/admin/api/v1.2/users?page=${(n % 3) + 1}&limit=20`)
    case 2:
      return expect('GET /admin/api/v1.2/users/{id}', 200, 'GET', `/admin/api/v1.2/users/${pick(users, n).id}`)
    case 3: {
      // Create, then delete: the world does not grow.
      const id = ++unique
      const created = await expect('POST /admin/api/v1.2/users', 201, 'POST', '/admin/api/v1.2/users', {
        username: `soak.user.${id}`,
        email: `soak${id}@example.com`,
        password: PASSWORD,
      })
      if (created.status === 201) await expect('DELETE /admin/api/v1.2/users/{id}', 204, 'DELETE', `/admin/api/v1.2/users/${created.body.id}`)
      return
    }
    case 4:
      return expect('PUT /admin/api/v1.2/users/{id}', 200, 'PUT', `/admin/api/v1.2/users/${pick(users, n).id}`, { email: `changed${n % 100}@example.com` })
    case 5:
      return expect('GET /core/users', 200, 'GET', `/core/users?limit=10&offset=${n % 40}`)
    case 6:
      return expect('GET /core/products/{id}', 200, 'GET', `/core/products/${pick(products, n)}`)
    case 7:
      return expect('PUT /core/products/{id}', 200, 'PUT', `/core/products/${pick(products, n)}`, { stock: n % 500 })
    case 8:
      return expect('POST /core/ingest/data', 200, 'POST', '/core/ingest/data', [{ sensor_id: `s-${n % 5}`, timestamp: '2026-01-01T00:00:00Z', value: n % 97 }])
    case 9:
      return expect('GET /quantum/v1/particles/{id}', 200, 'GET', `/quantum/v1/particles/${pick(particles, n)}`)
    case 10:
      return expect('POST /quantum/v1/measure', 200, 'POST', '/quantum/v1/measure', { particle_id: pick(particles, n), measurement_axis: pick(['x-axis', 'z-axis', '22.5deg'], n) })
    case 11:
      return expect('GET /quantum/v1/status', 200, 'GET', '/quantum/v1/status')
    case 12:
      return expect('POST /general/auth/login', 200, 'POST', '/general/auth/login', { username: pick(users, n).username, password: PASSWORD })
    case 13:
      return expect('GET /general/data/{id}', 200, 'GET', `/general/data/${pick(resources, n)}?fields=title,owner`)
    case 14:
      return expect('PUT /general/resources/{id}', 200, 'PUT', `/general/resources/${pick(resources, n)}`, { data: { title: `soak ${n % 1000}` } }, bearer)
    case 15:
      return expect('POST /general/notifications/send', 202, 'POST', '/general/notifications/send', { recipient_ids: [1, 2], message: 'soak', priority: 'normal' })
    case 16:
      return expect('GET /ledger/v1/status', 200, 'GET', '/ledger/v1/status')
    case 17:
      return expect('GET /ledger/v1/tokens/{id}', 200, 'GET', `/ledger/v1/tokens/${pick(tokens, n)}`)
    case 18:
      return expect('POST /ledger/v1/stake/delegate', 202, 'POST', '/ledger/v1/stake/delegate', {
        delegatorAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        validatorAddress: pick(validators, n),
        amount: String(1000 + (n % 1000)),
        signature: signature(++unique),
      })
    default:
      // Control calls that are safe in traffic: health, the clock, the journal's last entries.
      return pick(
        [
          () => expect('GET /__mock/health', 200, 'GET', '/__mock/health'),
          () => expect('GET /__mock/clock', 200, 'GET', '/__mock/clock'),
          () => expect('GET /__mock/requests', 200, 'GET', '/__mock/requests?limit=5'),
        ],
        Math.floor(n / 20),
      )()
  }
}

const openFds = () => readdirSync(`/proc/${pid}/fd`).length

log(`soak: ${REQUESTS.toLocaleString('en')} requests over ${CONNECTIONS} connections against ${server.url} (pid ${pid}), reset every ${RESET_EVERY.toLocaleString('en')}`)
const samples = [{ requests: 0, rssKiB: rssKiB(pid) }]
const started = performance.now()
let next = 0
let nextSample = SAMPLE_EVERY
let nextReset = RESET_EVERY
let resets = 0
while (done < REQUESTS) {
  // A batch of loops up to the next quiet point (a sample or a reset), then the quiet point itself.
  const stop = Math.min(nextSample, nextReset, REQUESTS)
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (done < stop) await step(next++)
    }),
  )
  if (done >= nextReset) {
    await expect('POST /__mock/reset', 200, 'POST', '/__mock/reset')
    resets++
    nextReset += RESET_EVERY
  }
  if (done >= nextSample || done >= REQUESTS) {
    const seconds = (performance.now() - started) / 1000
    samples.push({ requests: done, rssKiB: rssKiB(pid) })
    log(`  ${done.toLocaleString('en').padStart(9)} requests  ${(done / seconds).toFixed(0).padStart(5)} req/s  RSS ${(rssKiB(pid) / 1024).toFixed(1)} MiB  errors ${errors}`)
    nextSample += SAMPLE_EVERY
  }
}
const seconds = (performance.now() - started) / 1000
const fdsOpen = openFds()
agent.destroy()
await new Promise((resolve) => setTimeout(resolve, 500))
const fdsClosed = openFds()

log('')
log(`requests: ${done.toLocaleString('en')} in ${seconds.toFixed(0)} s = ${(done / seconds).toFixed(0)} req/s; resets: ${resets}`)
log(`errors: ${errors}${errorSamples.length ? `\n  ${errorSamples.join('\n  ')}` : ''}`)
log(`RSS (MiB) every ${SAMPLE_EVERY.toLocaleString('en')} requests: ${samples.map((sample) => (sample.rssKiB / 1024).toFixed(1)).join(', ')}`)
const third = samples.find((sample) => sample.requests >= (done * 2) / 3) ?? samples[0]
const growth = ((samples.at(-1)?.rssKiB ?? NaN) - third.rssKiB) / third.rssKiB
log(`RSS growth over the last third (from ${third.requests.toLocaleString('en')} requests): ${(growth * 100).toFixed(1)}% (limit 5%)`)
log(`open file descriptors of the server: ${fdsOpen} with the ${CONNECTIONS} connections open, ${fdsClosed} after they closed`)
log('')
log('| route | requests | p50 ms | p99 ms | max ms |')
log('| --- | ---: | ---: | ---: | ---: |')
for (const [route, list] of [...latencies].sort((a, b) => a[0].localeCompare(b[0]))) {
  list.sort((a, b) => a - b)
  const at = (/** @type {number} */ q) => list[Math.min(list.length - 1, Math.floor(q * list.length))].toFixed(1)
  log(`| \`${route}\` | ${list.length.toLocaleString('en')} | ${at(0.5)} | ${at(0.99)} | ${list[list.length - 1].toFixed(1)} |`)
}
const stderr = server.stderr()
if (stderr) log(`\nserver stderr:\n${stderr}`)
await stopAll()
const failed = errors > 0 || growth >= 0.05 || stderr !== ''
log(failed ? '\nFAIL' : '\nPASS')
process.exit(failed ? 1 : 0)
