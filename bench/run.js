// Throughput benchmark: the real CLI server against a bare node:http baseline.
//
//   npm run bench                                   # build, then 10 endpoints x 4 servers x (2 s warm-up + 10 s)
//   BENCH_DURATION=3 BENCH_CONNECTIONS=10 node bench/run.js   # smoke run (needs a prior build)
//
// Every server (three simulator variants and the baseline) runs as a child
// process, one at a time under load, so none shares an event loop with
// autocannon (which runs here, in this process).
// Exits non-zero when any run sees a connection error, a timeout or a status
// other than the one expected for that endpoint, so it never silently measures
// error responses. See bench/README.md for how to read the output.

import { execFileSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { privateKeyToAccount } from 'viem/accounts'
import { delegationMessage } from '../dist/src/index.js'

const HOST = '127.0.0.1'
const CLI = fileURLToPath(new URL('../bin/multi-area-mock.js', import.meta.url))
const BASELINE = fileURLToPath(new URL('./baseline-server.js', import.meta.url))
const SIM_ARGS = ['serve', '--port', '0', '--host', HOST, '--quiet', '--seed', '1', '--clock', '2026-01-01T00:00:00Z']
/**
 * Simulators measured side by side: the two ways the server reaches the
 * handlers (ServerOptions.dispatch), and `msw` again with the request journal
 * off, so the same run shows what the journal (on by default) costs.
 */
const VARIANTS = {
  msw: ['--dispatch', 'msw'],
  direct: ['--dispatch', 'direct'],
  nojournal: ['--dispatch', 'msw', '--journal-size', '0'],
}
const MODES = Object.keys(VARIANTS)
const LIST_PATH = '/admin/api/v1.2/users'
const LOGIN_PATH = '/general/auth/login'
const DATA_PATH = '/general/data/1'
const ENTANGLE_PATH = '/quantum/v1/entangle'
const MEASURE_PATH = '/quantum/v1/measure'
/** Every entangle creates a new pair; measuring one particle again and again is valid too. */
const ENTANGLE_BODY = JSON.stringify({ particle_type: 'electron', entanglement_mode: 'spin' })
const STATUS_PATH = '/ledger/v1/status'
const DELEGATE_PATH = '/ledger/v1/stake/delegate'
/** Area E's default-scenario validator every benchmarked delegation goes to. */
const VALIDATOR = '0x87148ec17A1bD256911257B51321a032a2826C8e'
/** A well-known development key (Anvil/Hardhat account 0): the benchmark's wallet. */
const WALLET = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')

const DURATION = positiveNumber('BENCH_DURATION', 10)
const CONNECTIONS = positiveInteger('BENCH_CONNECTIONS', 50)
const WARMUP = nonNegativeNumber('BENCH_WARMUP', 2)
/** Signed delegations made before the eip191 runs: each is accepted once, so one per request of a server's warm-up + run. */
const SIGNATURES = positiveInteger('BENCH_SIGNATURES', Math.ceil((WARMUP + DURATION) * 1500))
const CLOCK_TICKS = clockTicks()

/** Every child we started, so they can be stopped on any kind of exit. */
const children = new Set()

// ---------------------------------------------------------------------------
// Process lifecycle: the children die with us, whatever happens.

process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    process.stderr.write(`\nbench: ${signal}, stopping servers\n`)
    void stopAll().finally(() => process.exit(130))
  })
}

try {
  process.exitCode = await main()
} catch (error) {
  process.stderr.write(`\nbench: FAIL: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exitCode = 1
} finally {
  await stopAll()
}

// ---------------------------------------------------------------------------

async function main() {
  log(`multi-area-mock benchmark: ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s measured per endpoint and server`)
  log(`node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAverage()}; autocannon in the bench process, both servers in child processes, all on ${HOST}`)
  if (os.loadavg()[0] > 0.5 * os.cpus().length) log('warning: the machine is already busy; results will be skewed')

  const sims = {}
  for (const mode of MODES) {
    sims[mode] = await startChild(`simulator (${mode})`, process.execPath, [CLI, ...SIM_ARGS, ...VARIANTS[mode]], /multi-area-mock listening on (http:\/\/127\.0\.0\.1:\d+)/)
    log(`simulator ${mode} (${VARIANTS[mode].join(' ')}): ${sims[mode].url} (pid ${sims[mode].child.pid}; banner ${Math.round(sims[mode].startupMs)} ms after spawn, world seeded in ${sims[mode].seeding})`)
  }
  // Area E's eip191 row needs servers that recover signers.
  const signing = {}
  for (const mode of MODES) {
    signing[mode] = await startChild(`simulator (${mode}, eip191)`, process.execPath, [CLI, ...SIM_ARGS, ...VARIANTS[mode], '--signature-mode', 'eip191'], /multi-area-mock listening on (http:\/\/127\.0\.0\.1:\d+)/)
    log(`simulator ${mode} --signature-mode eip191: ${signing[mode].url} (pid ${signing[mode].child.pid})`)
  }
  const sim = sims.msw

  // Capture the real answers first: they become the baseline's fixtures.
  const listed = await capture(sim.url, 'GET', LIST_PATH, 200)
  const users = JSON.parse(listed.body)
  if (!Array.isArray(users) || users.length === 0 || typeof users[0].id !== 'string') throw new Error(`GET ${LIST_PATH} returned no users: ${listed.body.slice(0, 200)}`)
  const userId = users[0].id
  const detailPath = `${LIST_PATH}/${encodeURIComponent(userId)}`
  const detail = await capture(sim.url, 'GET', detailPath, 200)
  const created = await capture(sim.url, 'POST', LIST_PATH, 201, registration('bench-capture'))
  // Area D: a seeded active user logs in (PBKDF2 check + HS256 signing), and one resource is read.
  const loginUser = users.find((user) => user.status === 'active')
  if (!loginUser) throw new Error(`GET ${LIST_PATH} returned no active user to log in with`)
  const loginBody = JSON.stringify({ username: loginUser.username, password: 'Passw0rd!' })
  const loggedIn = await capture(sim.url, 'POST', LOGIN_PATH, 200, loginBody)
  const data = await capture(sim.url, 'GET', DATA_PATH, 200)
  const entangled = await capture(sim.url, 'POST', ENTANGLE_PATH, 201, ENTANGLE_BODY)
  const measureBody = JSON.stringify({ particle_id: JSON.parse(entangled.body).particle_id_a, measurement_axis: 'x-axis' })
  const measured = await capture(sim.url, 'POST', MEASURE_PATH, 200, measureBody)
  const status = await capture(sim.url, 'GET', STATUS_PATH, 200)
  // Signatures in format mode only need a unique shape; a counter makes one per request.
  let formatSequence = 0
  const formatDelegation = () => delegation(`0x${'1'.padStart(64, '0')}${(++formatSequence).toString(16).padStart(64, '0')}1b`)
  const captureDelegation = formatDelegation()
  const delegated = await capture(sim.url, 'POST', DELEGATE_PATH, 202, captureDelegation)
  // Every variant must answer byte-for-byte alike (same seed, clock and requests).
  for (const mode of MODES.filter((mode) => mode !== 'msw')) {
    for (const [method, path, fixture, body] of [
      ['GET', LIST_PATH, listed],
      ['GET', detailPath, detail],
      ['POST', LIST_PATH, created, registration('bench-capture')],
      ['POST', LOGIN_PATH, loggedIn, loginBody],
      ['GET', DATA_PATH, data],
      ['POST', ENTANGLE_PATH, entangled, ENTANGLE_BODY],
      ['POST', MEASURE_PATH, measured, measureBody],
      ['GET', STATUS_PATH, status],
      ['POST', DELEGATE_PATH, delegated, captureDelegation],
    ]) {
      const got = await capture(sims[mode].url, method, path, fixture.status, body)
      if (got.body !== fixture.body) throw new Error(`${mode}: ${method} ${path} body differs from msw's`)
    }
  }
  const usersBefore = Number(listed.headers['x-total-count']) + 1

  const baseline = await startChild('baseline', process.execPath, [BASELINE], /baseline listening on (http:\/\/127\.0\.0\.1:\d+)/, {
    BENCH_BASELINE_FIXTURES: JSON.stringify({
      list: listed,
      detail,
      create: created,
      listPath: LIST_PATH,
      detailPrefix: `${LIST_PATH}/`,
      routes: [
        { method: 'GET', path: DATA_PATH, fixture: data },
        { method: 'POST', path: ENTANGLE_PATH, fixture: entangled },
        { method: 'POST', path: MEASURE_PATH, fixture: measured },
        { method: 'POST', path: LOGIN_PATH, fixture: loggedIn },
        { method: 'GET', path: STATUS_PATH, fixture: status },
        { method: 'POST', path: DELEGATE_PATH, fixture: delegated },
      ],
    }),
  })
  log(`baseline:  ${baseline.url} (pid ${baseline.child.pid})`)

  // The baseline must answer byte-for-byte the same bodies.
  for (const [method, path, fixture, body] of [
    ['GET', LIST_PATH, listed],
    ['GET', detailPath, detail],
    ['POST', LIST_PATH, created, registration('bench-check')],
    ['POST', LOGIN_PATH, loggedIn, loginBody],
    ['GET', DATA_PATH, data],
    ['POST', ENTANGLE_PATH, entangled, ENTANGLE_BODY],
    ['POST', MEASURE_PATH, measured, measureBody],
    ['GET', STATUS_PATH, status],
    ['POST', DELEGATE_PATH, delegated, formatDelegation()],
  ]) {
    const got = await capture(baseline.url, method, path, fixture.status, body)
    if (got.body !== fixture.body) throw new Error(`baseline ${method} ${path} body differs from the simulator's`)
  }

  // A used signature is a 409, so the eip191 row sends each of these once per server.
  const started = performance.now()
  const signed = []
  for (let nonce = 0; nonce < SIGNATURES; nonce++) {
    const fields = { delegatorAddress: WALLET.address, validatorAddress: VALIDATOR, amount: '1000000000000000000', nonce }
    signed.push(delegation(await WALLET.signMessage({ message: delegationMessage(fields) }), nonce))
  }
  log(`signed ${SIGNATURES} delegations for the eip191 row in ${Math.round(performance.now() - started)} ms (BENCH_SIGNATURES)`)
  const eip191Check = await capture(signing.msw.url, 'POST', DELEGATE_PATH, 202, delegation(await WALLET.signMessage({ message: delegationMessage({ delegatorAddress: WALLET.address, validatorAddress: VALIDATOR, amount: '1000000000000000000', nonce: SIGNATURES }) }), SIGNATURES))
  if (Buffer.byteLength(eip191Check.body) !== Buffer.byteLength(delegated.body)) throw new Error('eip191 and format delegations answer bodies of different sizes')

  /** Each POST to the simulator needs a unique username, or it is a 409. */
  let sequence = 0
  /** Next pre-signed delegation; starts over for each server, whose world has not seen them. */
  let signedNext = 0
  const endpoints = [
    { name: `GET ${LIST_PATH}`, status: 200, bytes: Buffer.byteLength(listed.body), requests: [{ method: 'GET', path: LIST_PATH }] },
    { name: `GET ${LIST_PATH}/{id}`, status: 200, bytes: Buffer.byteLength(detail.body), requests: [{ method: 'GET', path: detailPath }] },
    // Every login answers a new token (new jti) of the same length; it does not grow the world.
    { name: `POST ${LOGIN_PATH}`, status: 200, bytes: Buffer.byteLength(loggedIn.body), requests: [jsonPost(LOGIN_PATH, loginBody)] },
    { name: 'GET /general/data/{id}', status: 200, bytes: Buffer.byteLength(data.body), requests: [{ method: 'GET', path: DATA_PATH }] },
    // The same particle measured again and again (valid: later measurements follow D17's cos² rule).
    { name: `POST ${MEASURE_PATH}`, status: 200, bytes: Buffer.byteLength(measured.body), requests: [jsonPost(MEASURE_PATH, measureBody)] },
    { name: `POST ${ENTANGLE_PATH}`, status: 201, bytes: Buffer.byteLength(entangled.body), requests: [jsonPost(ENTANGLE_PATH, ENTANGLE_BODY)] },
    { name: `GET ${STATUS_PATH}`, status: 200, bytes: Buffer.byteLength(status.body), requests: [{ method: 'GET', path: STATUS_PATH }] },
    {
      // POSTs last: they grow the world.
      name: `POST ${LIST_PATH}`,
      createsUser: true,
      status: 201,
      bytes: Buffer.byteLength(created.body),
      requests: [
        {
          method: 'POST',
          path: LIST_PATH,
          headers: { 'content-type': 'application/json' },
          setupRequest(request) {
            request.body = registration(`bench-${++sequence}`)
            return request
          },
        },
      ],
    },
    {
      name: `POST ${DELEGATE_PATH} (format)`,
      status: 202,
      bytes: Buffer.byteLength(delegated.body),
      requests: [
        {
          method: 'POST',
          path: DELEGATE_PATH,
          headers: { 'content-type': 'application/json' },
          setupRequest(request) {
            request.body = formatDelegation()
            return request
          },
        },
      ],
    },
    {
      name: `POST ${DELEGATE_PATH} (eip191)`,
      status: 202,
      bytes: Buffer.byteLength(delegated.body),
      servers: signing,
      onServer: () => {
        signedNext = 0
      },
      requests: [
        {
          method: 'POST',
          path: DELEGATE_PATH,
          headers: { 'content-type': 'application/json' },
          setupRequest(request) {
            // Past the pool the bodies repeat: those answer 409 and fail the run, as they should.
            request.body = signed[signedNext++ % signed.length]
            return request
          },
        },
      ],
    },
  ]

  const rows = []
  const problems = []
  const created201 = Object.fromEntries(MODES.map((mode) => [mode, 0]))
  for (const endpoint of endpoints) {
    const row = { endpoint }
    for (const [label, server] of [...MODES.map((mode) => [mode, (endpoint.servers ?? sims)[mode]]), ['baseline', baseline]]) {
      endpoint.onServer?.()
      if (WARMUP > 0) {
        const warm = await load(server, endpoint, WARMUP)
        problems.push(...check(`${label} ${endpoint.name} (warm-up)`, warm, endpoint.status))
        if (label !== 'baseline' && endpoint.createsUser) created201[label] += count(warm, 201)
      }
      const result = await load(server, endpoint, DURATION)
      problems.push(...check(`${label} ${endpoint.name}`, result, endpoint.status))
      assertAlive(label, server, problems)
      if (label !== 'baseline' && endpoint.createsUser) created201[label] += count(result, 201)
      row[label] = result
      if (endpoint.servers && label !== 'baseline' && signedNext > signed.length) problems.push(`${label} ${endpoint.name}: ${signedNext} requests for ${signed.length} signed delegations; raise BENCH_SIGNATURES`)
      log(`  ${label.padEnd(9)} ${endpoint.name.padEnd(36)} ${fmt(result.requests.average, 0).padStart(8)} req/s  p99 ${result.latency.p99} ms  ${summary(result)}`)
    }
    rows.push(row)
  }

  // Every 201 must have created a user: the world grew by exactly that much.
  const integrity = []
  for (const mode of MODES) {
    const after = await capture(sims[mode].url, 'GET', `${LIST_PATH}?limit=1`, 200)
    const usersAfter = Number(after.headers['x-total-count'])
    // autocannon stops with one request in flight per connection: the server may
    // still create those users after the run ends, uncounted. Allow that, no more.
    const postRuns = WARMUP > 0 ? 2 : 1
    const uncounted = usersAfter - usersBefore - created201[mode]
    const line = `${mode}: users before load ${usersBefore}, 201s counted ${created201[mode]}, users after ${usersAfter} (${uncounted} created by requests in flight when a run stopped; at most ${postRuns * CONNECTIONS})`
    integrity.push(line)
    if (uncounted < 0 || uncounted > postRuns * CONNECTIONS) problems.push(`world integrity: ${line}`)
    for (const server of [sims[mode], signing[mode]]) {
      if (server.stderr().trim()) problems.push(`simulator (${mode}) wrote to stderr:\n${server.stderr().trim().split('\n').slice(0, 10).join('\n')}`)
    }
  }

  printTable(rows)
  printJournalCost(rows)
  printDetails(rows)
  log(`\n${integrity.join('\n')}`)
  log(`load average at the end ${loadAverage()} (1, 5, 15 min; anything beyond the bench itself skews the numbers)`)

  if (problems.length > 0) {
    log(`\nFAIL: ${problems.length} problem(s); the numbers above include error responses and must not be trusted:`)
    for (const problem of problems) log(`  - ${problem}`)
    return 1
  }
  log('\nOK: every response had the expected status; no connection errors or timeouts.')
  return 0
}

// ---------------------------------------------------------------------------
// Load

/**
 * One autocannon run against `server`; also keeps the per-second request counts
 * and the CPU time the server (all its threads) and this process used meanwhile.
 */
async function load(server, endpoint, seconds) {
  const serverCpu0 = cpuSeconds(server.child.pid)
  const clientCpu0 = process.cpuUsage()
  const started = performance.now()
  const result = await autocannonRun(server.url, endpoint, seconds)
  const wall = (performance.now() - started) / 1000
  const serverCpu1 = cpuSeconds(server.child.pid)
  const clientCpu = process.cpuUsage(clientCpu0)
  const serverCpu = serverCpu0 === undefined || serverCpu1 === undefined ? undefined : serverCpu1 - serverCpu0
  return {
    ...result,
    cpu: {
      wall,
      server: serverCpu,
      client: (clientCpu.user + clientCpu.system) / 1e6,
    },
  }
}

function autocannonRun(url, endpoint, seconds) {
  return new Promise((resolve, reject) => {
    const perSecond = []
    const instance = autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: seconds,
        // Fresh request objects each run: autocannon mutates them.
        requests: endpoint.requests.map((request) => ({ ...request, headers: request.headers ? { ...request.headers } : undefined })),
        timeout: 10,
      },
      // The last tick comes after the stop, always with a zero count: drop it.
      (error, result) => (error ? reject(error) : resolve({ ...result, perSecond: perSecond.slice(0, Math.floor(seconds)) })),
    )
    instance.on('tick', ({ counter }) => perSecond.push(counter))
  })
}

/** Problems in one run: anything but the expected status, errors, timeouts, nothing measured. */
function check(label, result, expected) {
  const problems = []
  const unexpected = Object.entries(result.statusCodeStats ?? {}).filter(([status]) => Number(status) !== expected)
  if (unexpected.length > 0) problems.push(`${label}: unexpected statuses ${unexpected.map(([status, { count }]) => `${status}×${count}`).join(', ')}`)
  if (result.non2xx > 0) problems.push(`${label}: ${result.non2xx} non-2xx responses`)
  if (result.errors > 0) problems.push(`${label}: ${result.errors} connection errors (${result.timeouts} timeouts)`)
  if (result.mismatches > 0) problems.push(`${label}: ${result.mismatches} body mismatches`)
  if (count(result, expected) === 0) problems.push(`${label}: no ${expected} responses at all`)
  return problems
}

function count(result, status) {
  return Number(result.statusCodeStats?.[status]?.count ?? 0)
}

/** User + system CPU seconds of a process and all its threads (Linux /proc); undefined elsewhere. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
  } catch {
    return undefined
  }
}

// ---------------------------------------------------------------------------
// Children

/** Spawns a server, resolves once its banner on stdout names the URL. */
function startChild(name, command, args, banner, env = {}, timeoutMs = 15_000) {
  const spawnedAt = performance.now()
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
  children.add(child)
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk))
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`)), timeoutMs)
    const onData = () => {
      const match = banner.exec(out)
      if (!match) return
      clearTimeout(timer)
      child.stdout.off('data', onData)
      // Time from spawn to the banner: module loading, seeding and listening.
      resolve({ url: match[1], child, stderr: () => err, exited, startupMs: performance.now() - spawnedAt, seeding: /ready in (\d+ ms)/.exec(out)?.[1] })
    }
    child.stdout.on('data', onData)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`${name} exited (${code}) before listening\nstdout: ${out}\nstderr: ${err}`))
    })
  })
}

/** A server that died mid-benchmark ends it at once: nothing after would mean anything. */
function assertAlive(label, server, problems) {
  const { child } = server
  if (child.exitCode === null && child.signalCode === null) return
  const stderr = server.stderr().trim()
  throw new Error(
    `${label} (pid ${child.pid}) exited during the benchmark (${child.exitCode ?? child.signalCode})` +
      (stderr ? `\nstderr:\n${stderr.split('\n').slice(-20).join('\n')}` : '') +
      (problems.length ? `\nproblems so far:\n${problems.map((problem) => `  - ${problem}`).join('\n')}` : ''),
  )
}

/** SIGTERM every child still running, SIGKILL after 3 s. */
async function stopAll() {
  await Promise.all(
    [...children].map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
      await exited
      clearTimeout(timer)
    }),
  )
}

// ---------------------------------------------------------------------------
// HTTP helpers

function jsonPost(path, body) {
  return { method: 'POST', path, headers: { 'content-type': 'application/json' }, body }
}

function registration(username) {
  return JSON.stringify({ username, email: `${username}@example.com`, password: 'Passw0rd!' })
}

/** A `POST /ledger/v1/stake/delegate` body of the benchmark's wallet. */
function delegation(signature, nonce = 0) {
  return JSON.stringify({ delegatorAddress: WALLET.address, validatorAddress: VALIDATOR, amount: '1000000000000000000', nonce, signature })
}

/** One request; returns status, the headers worth replaying, and the body text. */
async function capture(base, method, path, expected, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
  })
  const text = await response.text()
  if (response.status !== expected) throw new Error(`${method} ${path} on ${base}: expected ${expected}, got ${response.status}: ${text.slice(0, 300)}`)
  const headers = {}
  for (const [name, value] of response.headers) {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name)) headers[name] = value
  }
  return { status: response.status, headers, body: text }
}

// ---------------------------------------------------------------------------
// Output

function printTable(rows) {
  const header = ['endpoint', 'msw req/s', 'msw p99 ms', 'direct req/s', 'direct p99 ms', 'base req/s', 'base p99 ms', 'msw ratio', 'direct ratio']
  const body = rows.map(({ endpoint, msw, direct, baseline }) => [
    endpoint.name,
    fmt(msw.requests.average, 0),
    String(msw.latency.p99),
    fmt(direct.requests.average, 0),
    String(direct.latency.p99),
    fmt(baseline.requests.average, 0),
    String(baseline.latency.p99),
    fmt(msw.requests.average / baseline.requests.average, 3),
    fmt(direct.requests.average / baseline.requests.average, 3),
  ])
  log('')
  log(`Results (${CONNECTIONS} connections, ${DURATION} s per run after ${WARMUP} s warm-up; ratio = simulator req/s / baseline req/s;`)
  log('msw = the CLI server with --dispatch msw (getResponse over the handlers), direct = --dispatch direct)')
  logTable(header, body)
}

/** A Markdown table: the first column left-aligned, the others right-aligned. */
function logTable(header, body) {
  const widths = header.map((title, i) => Math.max(title.length, ...body.map((row) => row[i].length)))
  const line = (cells) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ')} |`
  log(line(header))
  log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`)
  for (const row of body) log(line(row))
}

/**
 * What the request journal (on by default) costs per request: the msw server
 * with and without it (`--journal-size 0`), same run, same requests. A cost of
 * 1.05 means 5% more per request; the issue's budget is 1.10.
 */
function printJournalCost(rows) {
  const header = ['endpoint', 'journal off req/s', 'journal on req/s', 'cost (req/s)', 'off µs CPU/resp', 'on µs CPU/resp', 'cost (CPU)']
  const perResponse = (result) => (result.cpu.server === undefined ? NaN : (result.cpu.server / result.requests.total) * 1e6)
  const body = rows.map(({ endpoint, msw, nojournal }) => [
    endpoint.name,
    fmt(nojournal.requests.average, 0),
    fmt(msw.requests.average, 0),
    fmt(nojournal.requests.average / msw.requests.average, 3),
    fmt(perResponse(nojournal), 0),
    fmt(perResponse(msw), 0),
    fmt(perResponse(msw) / perResponse(nojournal), 3),
  ])
  log('')
  log('Request journal cost (msw with the default journal of 1,000 entries vs msw --journal-size 0; cost = with / without, per request; budget 1.10)')
  logTable(header, body)
}

function printDetails(rows) {
  log('')
  log('Per run: responses by status, non-2xx, errors, timeouts; latency p50/p99/max ms; response body bytes;')
  log('  CPU: server process (all threads) and bench process (autocannon) as % of one core, server CPU µs per response; req/s per second (first .. last)')
  for (const row of rows) {
    const { endpoint } = row
    for (const label of [...MODES, 'baseline']) {
      const result = row[label]
      const seconds = result.perSecond
      const trend = seconds.length > 1 ? `${seconds[0]} .. ${seconds[seconds.length - 1]} (min ${Math.min(...seconds)}, max ${Math.max(...seconds)})` : String(seconds[0] ?? '-')
      const { wall, server, client } = result.cpu
      const responses = result.requests.total
      const cpu =
        server === undefined
          ? `CPU server n/a, bench ${pct(client / wall)}`
          : `CPU server ${pct(server / wall)} (${fmt((server / responses) * 1e6, 0)} µs/resp), bench ${pct(client / wall)}`
      log(`  ${label.padEnd(9)} ${endpoint.name.padEnd(36)} ${summary(result)}`)
      log(`            latency ${result.latency.p50}/${result.latency.p99}/${result.latency.max}  body ${endpoint.bytes} B  ${cpu}  per second ${trend}`)
    }
  }
}

function summary(result) {
  const statuses = Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => `${status}×${count}`).join(' ') || 'none'
  return `[${statuses}; non2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}]`
}

function loadAverage() {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')
}

function pct(fraction) {
  return `${fmt(fraction * 100, 0)}%`
}

function fmt(value, digits) {
  return Number.isFinite(value) ? value.toFixed(digits) : '-'
}

function log(line) {
  process.stdout.write(`${line}\n`)
}

// ---------------------------------------------------------------------------
// Options

function clockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
}

function positiveNumber(name, fallback) {
  const value = process.env[name] === undefined || process.env[name] === '' ? fallback : Number(process.env[name])
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number of seconds, got "${process.env[name]}"`)
  return value
}

function nonNegativeNumber(name, fallback) {
  const value = process.env[name] === undefined || process.env[name] === '' ? fallback : Number(process.env[name])
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be zero or more seconds, got "${process.env[name]}"`)
  return value
}

function positiveInteger(name, fallback) {
  const value = process.env[name] === undefined || process.env[name] === '' ? fallback : Number(process.env[name])
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${process.env[name]}"`)
  return value
}
