// @ts-check
// The bench's entry point: `npm run bench` (throughput rounds), or with a flag one of the other benches; `--help` prints every switch.
//
//   npm run bench                       # build, then every row on every server: rounds, journal pairs, issue 25's targets (bench/throughput.js)
//   BENCH_SMOKE=1 node bench/run.js     # smoke run (needs a prior build): 1 s warm-up + 1 round of 1 s, the create row, fast and the baseline
//   node bench/run.js --help            # every switch of every bench script: bench/switches.js
//   npm run bench -- --scale | --proxy | --worlds | --ingest | --targets   # the other benches (bench/README.md)
//   node bench/run.js --browser         # the browser row: first simulated answer after navigation in Chromium, against a hand-written msw handler (bench/browser-start.js)
//
// Load comes from wrk, one server at a time, every server a child process; without
// wrk the bench says so and falls back to autocannon, which inflates every ratio.
// Exits non-zero when any run sees a connection error, a timeout or a status other
// than 2xx, so it never silently measures error responses.

import { log } from './lib/format.js'
import { printHelp } from './lib/help.js'
import { driver } from './lib/load.js'
import { stopAll } from './lib/processes.js'
import { CLI } from './lib/servers.js'
import { setting } from './switches.js'

try {
  if (setting('--help')) printHelp({ markdown: setting('--markdown') })
  else if (setting('--proxy')) {
    const { runProxyBench } = await import('./proxy.js')
    process.exitCode = await runProxyBench()
  } else if (setting('--bundle')) {
    const { runBundleBench } = await import('./bundle.js')
    process.exitCode = await runBundleBench()
  } else if (setting('--record')) {
    const { runRecordingBench } = await import('./recording.js')
    process.exitCode = await runRecordingBench()
  } else if (setting('--ingest')) {
    const { runIngestMemory } = await import('./ingest-memory.js')
    process.exitCode = await runIngestMemory({ log })
  } else if (setting('--browser')) {
    const { runBrowserStart } = await import('./browser-start.js')
    process.exitCode = await runBrowserStart()
  } else if (setting('--worlds')) {
    const { runWorlds } = await import('./worlds.js')
    process.exitCode = await runWorlds()
  } else if (setting('--targets')) {
    const { otherTargetRows, printTargets } = await import('./targets.js')
    printTargets(await otherTargetRows({ cli: CLI }))
  } else if (setting('BENCH_SCALE')) {
    const { runScale } = await import('./scale.js')
    process.exitCode = await runScale({ wrkAvailable: driver() === 'wrk' })
  } else {
    const { runThroughput } = await import('./throughput.js')
    process.exitCode = await runThroughput()
  }
} catch (error) {
  process.stderr.write(`\nbench: FAIL: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exitCode = 1
} finally {
  await stopAll()
}
