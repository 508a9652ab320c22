// @ts-check
// Issue 25's scale targets: fresh CLI servers with 100,000 generated users, each timed from the spawn to its banner and first 200, its RSS, and `GET /__mock/state`.
//
// A fresh server per round (BENCH_SCALE_TARGET_ROUNDS, default 3), each timed from
// the spawn: to the banner, to the first 200 of a list request; its RSS then;
// `GET /__mock/state` to the last byte (the first call of each process) and the RSS
// after three of them. Medians over the processes, each with its verdict. Needs the
// build (`npm run build`), not wrk; `node bench/scale.js` prints them alone.

import { writeFileSync } from 'node:fs'
import { median } from './lib/median.js'
import { rssMb } from './lib/proc-stats.js'
import { stopChild } from './lib/processes.js'
import { scratchPath } from './lib/scratch.js'
import { CLI, startSimulator } from './lib/servers.js'
import { LIST_PATH } from './scenarios.js'
import { setting } from './switches.js'

/** Users of the target rows' world. */
const TARGET_USERS = 100_000

/**
 * A scenario of `users` generated active users, as JSON.
 *
 * @param {number} users
 */
export function usersScenario(users) {
  return JSON.stringify({ description: `${users} generated users`, accounts: { generate: { active: users } } })
}

/**
 * One GET read to the last byte: milliseconds (rounded) and bytes.
 *
 * @param {string} url
 */
export async function timedGet(url) {
  const started = performance.now()
  const response = await fetch(url)
  const body = await response.arrayBuffer()
  return { ms: Math.round(performance.now() - started), bytes: body.byteLength }
}

/**
 * The scale targets of issue 25 as rows `{ target, limit, measured, met }`, medians over fresh processes.
 *
 * @example
 * for (const row of await scaleTargetRows()) console.log(row.target, row.measured, row.met)
 * @param {{ cli?: string, rounds?: number, users?: number }} [options]
 * @returns {Promise<import('./lib/format.js').TargetRow[]>}
 */
export async function scaleTargetRows({ cli = CLI, rounds = setting('BENCH_SCALE_TARGET_ROUNDS'), users = TARGET_USERS } = {}) {
  const scenarioFile = scratchPath(`users-${users}.json`)
  writeFileSync(scenarioFile, usersScenario(users))
  /** @type {Round[]} */
  const runs = []
  for (let round = 0; round < rounds; round++) runs.push(await targetRound(cli, scenarioFile))
  const m = (/** @type {(run: Round) => number} */ pick) => median(runs.map(pick))
  const each = (/** @type {(run: Round) => number} */ pick, unit = '') => runs.map((run) => `${Math.round(pick(run))}${unit}`).join(', ')
  const n = `median of ${rounds} fresh processes`
  const people = users.toLocaleString('en-US')
  const banner = m((run) => run.bannerMs)
  const first = m((run) => run.firstMs)
  const rss = m((run) => run.rssReady)
  const exportMs = m((run) => run.exportMs[0])
  const ratio = m((run) => run.rssAfterExport / run.rssReady)
  return [
    {
      target: `${people} users ready: spawn to the banner`,
      limit: '≤ 1.5 s',
      measured: `${(banner / 1000).toFixed(2)} s (${n}: ${each((run) => run.bannerMs, ' ms')}; seeding "ready in" ${each((run) => run.seedingMs, ' ms')})`,
      met: banner <= 1500,
    },
    {
      target: `${people} users: spawn to the first 200 (GET list)`,
      limit: '≤ 1.5 s',
      measured: `${(first / 1000).toFixed(2)} s (${n}: ${each((run) => run.firstMs, ' ms')})`,
      met: first <= 1500,
    },
    { target: `${people} users: RSS once ready`, limit: '≤ 250 MB', measured: `${Math.round(rss)} MB (${n}: ${each((run) => run.rssReady)})`, met: rss <= 250 },
    {
      target: `${people} users: GET /__mock/state, to the last byte`,
      limit: '≤ 300 ms',
      measured: `${Math.round(exportMs)} ms (${n}, first call each: ${each((run) => run.exportMs[0], ' ms')}; ${(m((run) => run.bytes) / 1e6).toFixed(1)} MB; 2nd and 3rd calls ${each((run) => median(run.exportMs.slice(1)), ' ms')})`,
      met: exportMs <= 300,
    },
    {
      target: `${people} users: RSS after 3 × GET /__mock/state (not doubled)`,
      limit: '≤ 1.25 × RSS once ready',
      measured: `${ratio.toFixed(2)} × (${n}: ${runs.map((run) => `${run.rssReady} → ${run.rssAfterExport} MB`).join(', ')})`,
      met: ratio <= 1.25,
    },
  ]
}

/**
 * @typedef {{ bannerMs: number, seedingMs: number, firstMs: number, rssReady: number, exportMs: number[], bytes: number, rssAfterExport: number }} Round
 */

/**
 * One fresh server: spawn → banner → first 200 → RSS → three exports → RSS.
 *
 * @param {string} cli
 * @param {string} scenarioFile
 * @returns {Promise<Round>}
 */
async function targetRound(cli, scenarioFile) {
  const server = await startSimulator(['--scenario', scenarioFile], { cli, name: 'the server', timeoutMs: 60_000 })
  try {
    const pid = server.child.pid
    const response = await fetch(`${server.url}${LIST_PATH}?limit=20`)
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`GET list answered ${response.status}`)
    const firstMs = performance.now() - server.spawnedAt
    const rssReady = rssMb(pid)
    const exportMs = []
    let bytes = 0
    for (let i = 0; i < 3; i++) {
      const state = await timedGet(`${server.url}/__mock/state`)
      exportMs.push(state.ms)
      bytes = state.bytes
    }
    const rssAfterExport = rssMb(pid)
    return { bannerMs: server.startupMs, seedingMs: Number(/(\d+)/.exec(server.seeding ?? '')?.[1]), firstMs, rssReady, exportMs, bytes, rssAfterExport }
  } finally {
    await stopChild(server)
  }
}
