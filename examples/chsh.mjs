#!/usr/bin/env node
// A CHSH (Bell) experiment run through the simulator's Area C API.
//
//   npx multi-area-mock serve            # in another terminal
//   node examples/chsh.mjs http://127.0.0.1:4000 [--pairs 500] [--mode spin|polarization] [--concurrency 8]
//
// For each of four axis settings (a, b) it entangles `pairs` fresh pairs,
// measures particle A along a and particle B along b, and estimates the
// correlation E(a, b) = mean of (±1 × ±1), counting spin_up/horizontal as +1 and
// spin_down/vertical as −1. Then S = E(a,b) − E(a,b′) + E(a′,b) + E(a′,b′).
// Any local hidden-variable theory keeps |S| ≤ 2; quantum mechanics reaches
// 2√2 ≈ 2.83 with these axes. No dependencies: Node 20+ and its global fetch.
//
// The URL is the server (Area C at /quantum, D1) or Area C's own base URL.

import { pathToFileURL } from 'node:url'

/** Axes (angles from the z-axis towards the x-axis, D17) that maximise |S| for each mode. */
export const CHSH_AXES = {
  spin: { a: ['0deg', '90deg'], b: ['45deg', '135deg'] },
  polarization: { a: ['0deg', '45deg'], b: ['22.5deg', '67.5deg'] },
}

const SIGN = { spin_up: 1, spin_down: -1, horizontal: 1, vertical: -1 }

/** Quantum prediction for the singlet (spin) and the anti-correlated photon pair (polarization). */
export function predictedCorrelation(mode, axisA, axisB) {
  const theta = ((parseFloat(axisB) - parseFloat(axisA)) * Math.PI) / 180
  return mode === 'spin' ? -Math.cos(theta) : -Math.cos(2 * theta)
}

/**
 * Runs the experiment. `fetch` may be any function with the Fetch API's shape
 * (an in-process simulator's `sim.fetch`, for instance).
 * Resolves to { mode, pairs, correlations: [{a, b, E, predicted}], S, firstPlus }
 * where firstPlus is the share of first measurements that gave spin_up/horizontal.
 */
export async function runChsh({ url, pairs = 500, mode = 'spin', concurrency = 8, fetch = globalThis.fetch }) {
  const parsed = new URL(url)
  const base = `${parsed.origin}${parsed.pathname === '/' ? '/quantum' : parsed.pathname.replace(/\/$/, '')}/v1`
  const particleType = mode === 'polarization' ? 'photon' : 'electron'
  const post = async (path, body, expected) => {
    const response = await fetch(new Request(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
    const text = await response.text()
    if (response.status !== expected) throw new Error(`POST ${base}${path} answered ${response.status}, expected ${expected}: ${text.slice(0, 300)}`)
    return JSON.parse(text)
  }

  const { a, b } = CHSH_AXES[mode]
  const correlations = []
  let firstPlus = 0
  for (const [axisA, axisB] of [
    [a[0], b[0]],
    [a[0], b[1]],
    [a[1], b[0]],
    [a[1], b[1]],
  ]) {
    let sum = 0
    await inParallel(pairs, concurrency, async () => {
      const pair = await post('/entangle', { particle_type: particleType, entanglement_mode: mode }, 201)
      const first = await post('/measure', { particle_id: pair.particle_id_a, measurement_axis: axisA }, 200)
      const second = await post('/measure', { particle_id: pair.particle_id_b, measurement_axis: axisB }, 200)
      if (SIGN[first.result] === 1) firstPlus++
      sum += SIGN[first.result] * SIGN[second.result]
    })
    correlations.push({ a: axisA, b: axisB, E: sum / pairs, predicted: predictedCorrelation(mode, axisA, axisB) })
  }
  const [ab, abPrime, aPrimeB, aPrimeBPrime] = correlations.map((entry) => entry.E)
  return { mode, pairs, correlations, S: ab - abPrime + aPrimeB + aPrimeBPrime, firstPlus: firstPlus / (4 * pairs) }
}

/** Runs `task` `count` times, at most `concurrency` at once. */
async function inParallel(count, concurrency, task) {
  let started = 0
  const worker = async () => {
    while (started < count) {
      started++
      await task()
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
}

/** The report the command prints. */
export function formatReport(run, url) {
  const plus = run.mode === 'spin' ? 'spin_up' : 'horizontal'
  const lines = [
    `CHSH experiment against ${url}: ${run.mode} mode, ${run.pairs} pairs per setting`,
    '  a        b        E(a,b)   quantum prediction',
    ...run.correlations.map(({ a, b, E, predicted }) => `  ${a.padEnd(8)} ${b.padEnd(8)} ${E.toFixed(3).padStart(6)}   ${predicted.toFixed(3).padStart(6)}`),
    `S = E(a,b) - E(a,b') + E(a',b) + E(a',b') = ${run.S.toFixed(3)}`,
    `|S| = ${Math.abs(run.S).toFixed(3)}: classical (local hidden variables) at most 2, quantum 2√2 = ${(2 * Math.SQRT2).toFixed(3)}; ` +
      `expect about ±${(3 * Math.sqrt(2 / run.pairs)).toFixed(2)} of noise (3σ) with ${run.pairs} pairs per setting`,
    `first measurements: ${(run.firstPlus * 100).toFixed(1)} % ${plus} (quantum: 50 %)`,
  ]
  return lines.join('\n')
}

async function main(argv) {
  const options = { url: 'http://127.0.0.1:4000', pairs: 500, mode: 'spin', concurrency: 8 }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--pairs' || arg === '--concurrency') options[arg.slice(2)] = Number(argv[++i])
    else if (arg === '--mode') options.mode = argv[++i]
    else if (!arg.startsWith('--')) options.url = arg
    else return usage(`unknown option ${arg}`)
  }
  if (!Number.isInteger(options.pairs) || options.pairs < 1) return usage('--pairs must be a positive integer')
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) return usage('--concurrency must be a positive integer')
  if (!(options.mode in CHSH_AXES)) return usage('--mode must be spin or polarization')
  if (!URL.canParse(options.url)) return usage(`not a URL: ${options.url}`)
  try {
    process.stdout.write(`${formatReport(await runChsh(options), options.url)}\n`)
  } catch (error) {
    process.stderr.write(`chsh: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  }
}

function usage(problem) {
  process.stderr.write(`chsh: ${problem}\nusage: node examples/chsh.mjs [url] [--pairs N] [--mode spin|polarization] [--concurrency N]\n`)
  process.exitCode = 2
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2))
