// @ts-check
// Ingestion memory (`npm run bench:ingest`): does the CLI server's RSS level off under a day of sensor data?
//
// Issue 11, "Scale": 2 M points → 650 MB RSS before the window, D15.
//
//   npm run bench:ingest                                # build, then 2,000,000 points (~2–4 min on 2 cores)
//   npm run bench -- --ingest                           # the same, from bench/run.js
//   INGEST_POINTS=200000 node bench/ingest-memory.js    # a shorter run (after a build)
//   BENCH_SMOKE=1 node bench/ingest-memory.js           # smoke run: 20,000 points, growth not judged
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

import { spawnSync } from 'node:child_process'
import { Agent } from 'node:http'
import { fileURLToPath } from 'node:url'
import { send } from './lib/http-client.js'
import { loadAverage, rssKiB } from './lib/proc-stats.js'
import { stopChild } from './lib/processes.js'
import { CLI, SERVE_ARGS, startSimulator } from './lib/servers.js'
import { setting } from './switches.js'

const DAY_MS = 86_400_000
const START = Date.parse('2026-01-01T00:00:00Z')

/**
 * Runs the ingestion memory figures; resolves to the exit code.
 *
 * @example
 * process.exitCode = await runIngestMemory({ cli: 'bin/multi-area-mock.js', log: console.log })
 * @param {{ cli?: string, log?: (line: string) => void, env?: NodeJS.ProcessEnv }} [options]
 */
export async function runIngestMemory({ cli, log = (line) => process.stdout.write(`${line}\n`), env = process.env } = {}) {
  const get = (/** @type {string} */ name) => setting(name, env)
  cli ??= get('INGEST_CLI') || CLI
  const points = get('INGEST_POINTS')
  const batch = get('INGEST_BATCH')
  const sensors = get('INGEST_SENSORS')
  const connections = get('INGEST_CONNECTIONS')
  const sampleEvery = get('INGEST_SAMPLE_EVERY')
  const expectFlat = get('INGEST_EXPECT_FLAT')
  /** @type {string[]} */
  const extraArgs = get('INGEST_ARGS')
  const serveCli = /** @type {string} */ (cli)
  const windowed = spawnSync(process.execPath, [serveCli, 'serve', '--help'], { encoding: 'utf8' }).stdout.includes('--ingest-window')

  const args = [serveCli, ...SERVE_ARGS, ...extraArgs]
  const server = await startSimulator(extraArgs, { cli: serveCli, name: 'the server', timeoutMs: 30_000 })
  const rssMiB = () => rssKiB(server.child.pid) / 1024
  const agent = new Agent({ keepAlive: true, maxSockets: connections })
  const { port } = new URL(server.url)
  const perSensor = Math.ceil(points / sensors)
  const stepMs = DAY_MS / perSensor
  log(
    `ingestion memory: ${points.toLocaleString('en')} points, ${sensors} sensors (one point every ${(stepMs / 1000).toFixed(1)} s of a day each), batches of ${batch.toLocaleString('en')}, ${connections} connection(s)`,
  )
  log(`server: node ${serveCli.replace(`${process.cwd()}/`, '')} ${args.slice(1).join(' ')} (pid ${server.child.pid}, ${windowed ? 'with' : 'without'} the ingestion window)`)
  log(`load average at the start: ${loadAverage(', ')}`)

  const samples = [{ points: 0, rssMiB: rssMiB() }]
  let sent = 0
  let nextSample = sampleEvery
  let errors = 0
  /** @type {string[]} */
  const errorSamples = []
  const started = performance.now()
  try {
    // Point i: sensor i % sensors, at its (i / sensors)-th instant of the day.
    const body = (/** @type {number} */ from, /** @type {number} */ size) => {
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
        const reply = await send(agent, port, 'POST', '/core/ingest/data', body(from, size), { timeoutMs: 120_000 })
        if (reply.status !== 200 || reply.body?.records_processed !== size) {
          errors++
          if (errorSamples.length < 5) errorSamples.push(`${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`)
        }
        sent += size
        while (sent >= nextSample) {
          samples.push({ points: nextSample, rssMiB: rssMiB() })
          nextSample += sampleEvery
        }
      }
    }
    await Promise.all(Array.from({ length: connections }, worker))
    const seconds = (performance.now() - started) / 1000
    // A quiet second: what the server holds once the last batch is garbage.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const idle = rssMiB()

    log('')
    log(
      `sent ${sent.toLocaleString('en')} points in ${seconds.toFixed(1)} s (${Math.round(sent / seconds).toLocaleString('en')} points/s); errors: ${errors}${errorSamples.length ? `\n  ${errorSamples.join('\n  ')}` : ''}`,
    )
    log('')
    log('| points sent | server RSS MiB |')
    log('| ---: | ---: |')
    for (const sample of samples) log(`| ${sample.points.toLocaleString('en')} | ${sample.rssMiB.toFixed(0)} |`)
    log(`| after 1 s idle | ${idle.toFixed(0)} |`)
    // RSS saws up and down with each batch's garbage, so compare peaks: the second half's against the first's.
    const peak = (/** @type {Array<{ rssMiB: number }>} */ list) => Math.max(...list.map((sample) => sample.rssMiB))
    const firstHalf = samples.filter((sample) => sample.points <= sent / 2)
    const secondHalf = samples.filter((sample) => sample.points > sent / 2)
    const growth = (peak(secondHalf) - peak(firstHalf)) / peak(firstHalf)
    log('')
    log(
      `peak RSS: ${peak(firstHalf).toFixed(0)} MiB in the first half, ${peak(secondHalf).toFixed(0)} MiB in the second: ${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}% (${expectFlat ? 'limit +20%' : 'not checked'})`,
    )

    let countsOk = true
    if (windowed) {
      const asked = performance.now()
      const reply = await send(agent, port, 'GET', '/__mock/state', undefined, { timeoutMs: 120_000 })
      const summary = reply.body?.core?.ingestion
      countsOk = summary?.accepted === sent && summary.accepted === summary.stored + summary.evicted
      log(
        `GET /__mock/state: ${Math.round(performance.now() - asked)} ms, ${(reply.bytes / 1e6).toFixed(1)} MB; core.ingestion ${JSON.stringify(summary)}${countsOk ? '' : ' (expected every point sent as accepted)'}`,
      )
      log(`RSS after GET /__mock/state: ${rssMiB().toFixed(0)} MiB`)
    }
    log(`load average at the end: ${loadAverage(', ')}`)
    const stderr = server.stderr()
    if (stderr) log(`\nserver stderr:\n${stderr}`)
    const failed = errors > 0 || !countsOk || stderr !== '' || (expectFlat && growth > 0.2)
    log(failed ? '\nFAIL' : '\nPASS')
    return failed ? 1 : 0
  } finally {
    agent.destroy()
    await stopChild(server)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runIngestMemory().then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`bench:ingest: FAIL: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
      process.exit(1)
    },
  )
}
