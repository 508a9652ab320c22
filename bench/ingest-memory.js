// Ingestion memory: does the CLI server's RSS level off under a day of sensor
// data? (issue 11, "Scale": 2 M points → 650 MB RSS before the window, D15.)
//
//   npm run bench:ingest                                # build, then 2,000,000 points (~2–4 min on 2 cores)
//   npm run bench -- --ingest                           # the same, from bench/run.js
//   INGEST_POINTS=200000 node bench/ingest-memory.js    # smoke run (after a build)
//   INGEST_ARGS='--ingest-window 100000' node bench/ingest-memory.js
//   INGEST_CLI=/path/to/other/bin/multi-area-mock.js node bench/ingest-memory.js   # another build (e.g. main, for "before")
//
// The server is a child process on 127.0.0.1 (`serve --port 0 --quiet`); this
// process sends `POST /core/ingest/data` batches over keep-alive node:http
// connections: INGEST_SENSORS sensors, each sending one point every few seconds
// of one simulated day, round-robin, INGEST_BATCH points per batch. Every answer
// must be 200 with `records_processed` equal to the batch length. The server's
// RSS (/proc) is sampled every INGEST_SAMPLE_EVERY points. At the end, when the
// server has the ingestion window (its `serve --help` says `--ingest-window`),
// `GET /__mock/state` must count every point sent as accepted.
// Fails (exit 1) on any error, or, unless INGEST_EXPECT_FLAT=0, when RSS grows by
// more than 20 % from the first half of the run to the second (peaks: RSS
// saws with each batch's garbage). Figures: bench/README.md.

import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import os from 'node:os'
import { fileURLToPath } from 'node:url'

const DEFAULT_CLI = fileURLToPath(new URL('../bin/multi-area-mock.js', import.meta.url))
const DAY_MS = 86_400_000
const START = Date.parse('2026-01-01T00:00:00Z')

/**
 * Runs the ingestion memory figures; resolves to the exit code.
 *
 * @example
 * process.exitCode = await runIngestMemory({ cli: 'bin/multi-area-mock.js', log: console.log })
 */
export async function runIngestMemory({ cli, log = (line) => process.stdout.write(`${line}\n`), env = process.env } = {}) {
  cli ??= env.INGEST_CLI || DEFAULT_CLI
  const points = count(env, 'INGEST_POINTS', 2_000_000)
  const batch = count(env, 'INGEST_BATCH', 10_000)
  const sensors = count(env, 'INGEST_SENSORS', 50)
  const connections = count(env, 'INGEST_CONNECTIONS', 2)
  const sampleEvery = count(env, 'INGEST_SAMPLE_EVERY', 100_000)
  const expectFlat = env.INGEST_EXPECT_FLAT !== '0'
  const extraArgs = (env.INGEST_ARGS ?? '').split(/\s+/).filter(Boolean)
  const windowed = spawnSync(process.execPath, [cli, 'serve', '--help'], { encoding: 'utf8' }).stdout.includes('--ingest-window')

  const args = [cli, 'serve', '--port', '0', '--host', '127.0.0.1', '--quiet', '--seed', '1', '--clock', '2026-01-01T00:00:00Z', ...extraArgs]
  const server = await startServer(args)
  const agent = new Agent({ keepAlive: true, maxSockets: connections })
  const { port } = new URL(server.url)
  const perSensor = Math.ceil(points / sensors)
  const stepMs = DAY_MS / perSensor
  log(`ingestion memory: ${points.toLocaleString('en')} points, ${sensors} sensors (one point every ${(stepMs / 1000).toFixed(1)} s of a day each), batches of ${batch.toLocaleString('en')}, ${connections} connection(s)`)
  log(`server: node ${args.slice(0, 1).map((path) => path.replace(process.cwd() + '/', '')).join('')} ${args.slice(1).join(' ')} (pid ${server.child.pid}, ${windowed ? 'with' : 'without'} the ingestion window)`)
  log(`load average at the start: ${loadAverage()}`)

  const samples = [{ points: 0, rssMiB: rssMiB(server.child.pid) }]
  let sent = 0
  let nextSample = sampleEvery
  let errors = 0
  const errorSamples = []
  const started = performance.now()
  try {
    // Point i: sensor i % sensors, at its (i / sensors)-th instant of the day.
    const body = (from, size) => {
      const parts = []
      for (let i = from; i < from + size; i++) {
        const sensor = i % sensors
        const at = new Date(START + Math.floor(i / sensors) * stepMs).toISOString()
        parts.push(`{"timestamp":"${at}","value":${(20 + Math.sin(i / 1000) * 5).toFixed(2)},"sensor_id":"sensor-${String(sensor).padStart(3, '0')}"}`)
      }
      return `[${parts.join(',')}]`
    }
    let offered = 0
    const worker = async () => {
      while (offered < points) {
        const from = offered
        const size = Math.min(batch, points - from)
        offered += size
        const reply = await post(agent, port, '/core/ingest/data', body(from, size))
        if (reply.status !== 200 || reply.body?.records_processed !== size) {
          errors++
          if (errorSamples.length < 5) errorSamples.push(`${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`)
        }
        sent += size
        while (sent >= nextSample) {
          samples.push({ points: nextSample, rssMiB: rssMiB(server.child.pid) })
          nextSample += sampleEvery
        }
      }
    }
    await Promise.all(Array.from({ length: connections }, worker))
    const seconds = (performance.now() - started) / 1000
    // A quiet second: what the server holds once the last batch is garbage.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const idle = rssMiB(server.child.pid)

    log('')
    log(`sent ${sent.toLocaleString('en')} points in ${seconds.toFixed(1)} s (${Math.round(sent / seconds).toLocaleString('en')} points/s); errors: ${errors}${errorSamples.length ? `\n  ${errorSamples.join('\n  ')}` : ''}`)
    log('')
    log('| points sent | server RSS MiB |')
    log('| ---: | ---: |')
    for (const sample of samples) log(`| ${sample.points.toLocaleString('en')} | ${sample.rssMiB.toFixed(0)} |`)
    log(`| after 1 s idle | ${idle.toFixed(0)} |`)
    // RSS saws up and down with each batch's garbage, so compare peaks: the second half's against the first's.
    const peak = (list) => Math.max(...list.map((sample) => sample.rssMiB))
    const firstHalf = samples.filter((sample) => sample.points <= sent / 2)
    const secondHalf = samples.filter((sample) => sample.points > sent / 2)
    const growth = (peak(secondHalf) - peak(firstHalf)) / peak(firstHalf)
    log('')
    log(`peak RSS: ${peak(firstHalf).toFixed(0)} MiB in the first half, ${peak(secondHalf).toFixed(0)} MiB in the second: ${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}% (${expectFlat ? 'limit +20%' : 'not checked'})`)

    let countsOk = true
    if (windowed) {
      const asked = performance.now()
      const reply = await get(agent, port, '/__mock/state')
      const summary = reply.body?.core?.ingestion
      countsOk = summary?.accepted === sent && summary.accepted === summary.stored + summary.evicted
      log(`GET /__mock/state: ${Math.round(performance.now() - asked)} ms, ${(reply.bytes / 1e6).toFixed(1)} MB; core.ingestion ${JSON.stringify(summary)}${countsOk ? '' : ' (expected every point sent as accepted)'}`)
      log(`RSS after GET /__mock/state: ${rssMiB(server.child.pid).toFixed(0)} MiB`)
    }
    log(`load average at the end: ${loadAverage()}`)
    const stderr = server.stderr()
    if (stderr) log(`\nserver stderr:\n${stderr}`)
    const failed = errors > 0 || !countsOk || stderr !== '' || (expectFlat && growth > 0.2)
    log(failed ? '\nFAIL' : '\nPASS')
    return failed ? 1 : 0
  } finally {
    agent.destroy()
    server.child.kill('SIGTERM')
    await server.exited
  }
}

function startServer(args) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  let out = ''
  let err = ''
  child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`server did not start within 30 s: ${err}`))
    }, 30_000)
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve({ url: match[1], child, exited, stderr: () => err })
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited (${code}) before listening: ${err}`))
    })
  })
}

function post(agent, port, path, text) {
  return send(agent, port, 'POST', path, text)
}

function get(agent, port, path) {
  return send(agent, port, 'GET', path)
}

/** One request; resolves with the status and the parsed body (never rejects: errors are counted). */
function send(agent, port, method, path, text) {
  const headers = text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }
  return new Promise((resolve) => {
    const outgoing = request({ agent, host: '127.0.0.1', port, method, path, headers, timeout: 120_000 }, (incoming) => {
      const chunks = []
      incoming.on('data', (chunk) => chunks.push(chunk))
      incoming.on('end', () => {
        const data = Buffer.concat(chunks).toString('utf8')
        let parsed = data
        try {
          parsed = data === '' ? null : JSON.parse(data)
        } catch {}
        resolve({ status: incoming.statusCode, body: parsed, bytes: data.length })
      })
      incoming.on('error', (error) => resolve({ status: 0, body: String(error) }))
    })
    outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')))
    outgoing.on('error', (error) => resolve({ status: 0, body: String(error) }))
    outgoing.end(text)
  })
}

/** Resident set size of a process in MiB (Linux /proc). */
function rssMiB(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024
  } catch {
    return Number.NaN
  }
}

function loadAverage() {
  return os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(', ')
}

function count(env, name, fallback) {
  const value = env[name] === undefined || env[name] === '' ? fallback : Number(env[name])
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${env[name]}"`)
  return value
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runIngestMemory().then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`bench:ingest: FAIL: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
      process.exit(1)
    },
  )
}
