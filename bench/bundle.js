// @ts-check
// World bundles (`npm run bench:bundle`, or `npm run bench -- --bundle`; issue 35): the size and time of `GET /__mock/bundle` for a world with 10,000 commands, and how long `serve --replay` of it takes to start, each beside its baseline measured in the same run.
//
//   npm run bench:bundle                                  # build, then BENCH_BUNDLE_COMMANDS (10,000) commands, 5 rounds
//   BENCH_SMOKE=1 node bench/bundle.js                    # smoke run (after a build)
//
// One server (seed 1, frozen clock) receives the commands over HTTP, 8 at a time:
// product price updates, and every tenth a user created (with a password, sealed in
// the bundle) and a pair entangled. Then, in alternating pairs: `GET /__mock/bundle`
// against `GET /__mock/state` of the same world (the baseline: the world without its
// history); and starting `serve --replay <bundle>` against starting a plain `serve`
// (the baseline: seeding the same scenario), each to its banner. Medians of the rounds,
// with the load average. Exits non-zero if the replay does not give the same state.

import { writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { log, markdownTable } from './lib/format.js'
import { median } from './lib/median.js'
import { loadAverage } from './lib/proc-stats.js'
import { stopAll, stopChild } from './lib/processes.js'
import { scratchPath } from './lib/scratch.js'
import { startReplay, startSimulator } from './lib/servers.js'
import { setting } from './switches.js'

/**
 * Runs the bundle figures; resolves to the exit code.
 *
 * @example
 * process.exitCode = await runBundleBench()
 */
export async function runBundleBench() {
  const count = setting('BENCH_BUNDLE_COMMANDS')
  const rounds = setting('BENCH_BUNDLE_ROUNDS')
  log(`world bundles: ${count} commands, ${rounds} rounds of each pair; load average ${loadAverage()}`)
  try {
    const server = await startSimulator([], { name: 'simulator' })
    const sent = performance.now()
    await sendCommands(server.url, count)
    log(`${count} commands sent in ${((performance.now() - sent) / 1000).toFixed(1)} s`)
    const timings = { bundle: /** @type {number[]} */ ([]), state: /** @type {number[]} */ ([]), replay: /** @type {number[]} */ ([]), plain: /** @type {number[]} */ ([]) }
    let bundleText = ''
    let stateText = ''
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? ['bundle', 'state'] : ['state', 'bundle']) {
        const started = performance.now()
        const text = await (await fetch(`${server.url}/__mock/${side}`)).text()
        timings[side === 'bundle' ? 'bundle' : 'state'].push(performance.now() - started)
        if (side === 'bundle') bundleText = text
        else stateText = text
      }
    }
    const file = scratchPath('bundle.json')
    writeFileSync(file, bundleText)
    const bundle = JSON.parse(bundleText)
    if (bundle.commands.length + bundle.folded < count) throw new Error(`the bundle holds ${bundle.commands.length} commands (${bundle.folded} folded), not ${count}`)
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? ['replay', 'plain'] : ['plain', 'replay']) {
        const started = performance.now()
        const started_ = side === 'replay' ? await startReplay(file) : await startSimulator([], { name: side })
        timings[side === 'replay' ? 'replay' : 'plain'].push(performance.now() - started)
        if (side === 'replay' && round === 0) {
          const replayed = await (await fetch(`${started_.url}/__mock/state`)).text()
          if (replayed !== stateText) throw new Error('the replay does not give the world the bundle was taken of')
        }
        await stopChild(started_)
      }
    }
    await stopChild(server)
    const kb = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(0)} kB`
    const ms = (/** @type {number[]} */ values) => median(values).toFixed(1)
    const rows = [
      ['GET /__mock/bundle', ms(timings.bundle), kb(Buffer.byteLength(bundleText)), kb(gzipSync(bundleText).length)],
      ['GET /__mock/state (baseline)', ms(timings.state), kb(Buffer.byteLength(stateText)), kb(gzipSync(stateText).length)],
      ['serve --replay <bundle>, to its banner', ms(timings.replay), '', ''],
      ['serve, to its banner (baseline)', ms(timings.plain), '', ''],
    ]
    for (const line of markdownTable(['what', 'median ms', 'size', 'gzipped'], rows)) log(line)
    log(`${bundle.commands.length} commands kept (${bundle.folded} folded), journal ${bundle.journal.length} entries; load average after: ${loadAverage()}`)
    return 0
  } finally {
    await stopAll()
  }
}

/**
 * Sends `count` commands, 8 at a time: price updates, and every tenth a user and a pair.
 *
 * @param {string} url
 * @param {number} count
 */
async function sendCommands(url, count) {
  let next = 0
  const json = { 'content-type': 'application/json' }
  const one = async () => {
    while (next < count) {
      const n = next++
      const request =
        n % 10 === 0
          ? { path: '/core/users', body: { username: `bench.user.${n}`, email: `bench.user.${n}@example.com`, password: 'correct-horse-battery' } }
          : n % 10 === 5
            ? { path: '/quantum/v1/entangle', body: { particle_type: 'photon', entanglement_mode: 'polarization' } }
            : { path: '/core/products/prod-1001', method: 'PUT', body: { price: (n % 500) + 0.5 } }
      const response = await fetch(`${url}${request.path}`, { method: request.method ?? 'POST', headers: json, body: JSON.stringify(request.body) })
      if (response.status >= 300) throw new Error(`${request.path} answered ${response.status}: ${await response.text()}`)
    }
  }
  await Promise.all(Array.from({ length: 8 }, one))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await runBundleBench()
