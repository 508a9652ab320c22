// @ts-check
// What a test suite pays per test: reset, a typical test through setupServer, world create + delete (`node bench/test-suite.js`, after a build).
//
//   - `sim.reset()` on the default scenario, and on one with 10,000 generated users, each
//     after a test that created a user (so the users are loaded again);
//   - `sim.reset()` after writes in four areas' sections, for information;
//   - a typical test: `sim.reset()` then 4 requests through msw's `setupServer` with the
//     simulator's handlers, as a vitest suite sends them (list users, read one, create
//     one, log in);
//   - a world create + delete (what the Playwright fixture does per test), in-process
//     (`sim.worlds.create()` + `delete`) and over HTTP (POST/DELETE /__mock/worlds against
//     the CLI server in a child process, one kept-alive connection).
// Each row: BENCH_SUITE_WARMUP rounds first, then the median of BENCH_SUITE_COUNT
// measured ones, one at a time. Exports `testSuiteRows()` for bench/targets.js; run
// standalone it prints the rows as a markdown table.

import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { setupServer } from 'msw/node'
import { createSimulator } from '../dist/src/index.js'
import { log, targetLines } from './lib/format.js'
import { median } from './lib/median.js'
import { stopChild } from './lib/processes.js'
import { setting } from './switches.js'
import { inProcess, overHttp, startWorldsServer } from './worlds.js'

const COUNT = setting('BENCH_SUITE_COUNT')
const WARMUP = setting('BENCH_SUITE_WARMUP')
const CLOCK = '2026-01-01T00:00:00Z'
const DEFAULT_SCENARIO = JSON.parse(readFileSync(new URL('../scenarios/default.json', import.meta.url), 'utf8'))
/** The default scenario with 10,000 generated users instead of 48. */
const TEN_THOUSAND = { ...DEFAULT_SCENARIO, $schema: undefined, accounts: { generate: { active: 8000, inactive: 1000, pending: 1000 } } }
delete TEN_THOUSAND.$schema

/** @typedef {import('./lib/format.js').TargetRow} TargetRow */

/**
 * The per-test rows, in the shape bench/targets.js prints.
 *
 * @example
 * for (const row of await testSuiteRows()) console.log(row.target, row.measured, row.met)
 * @returns {Promise<TargetRow[]>}
 */
export async function testSuiteRows() {
  const rows = []
  rows.push(row('sim.reset(), default scenario (after one user created)', 1, await resets('default')))
  rows.push(row('sim.reset(), 10,000 users (after one user created)', 5, await resets(TEN_THOUSAND)))
  rows.push(row('sim.reset() after writes in Areas B, C, D and E (for information)', undefined, await resetsAfterWrites()))
  rows.push(row('typical test: reset + 4 requests via setupServer', 3, await typicalTests()))
  const local = await inProcess('default', COUNT, WARMUP)
  rows.push(row('world create + delete, in-process', 5, sums(local)))
  const server = await startWorldsServer()
  try {
    rows.push(row('world create + delete, HTTP (POST/DELETE /__mock/worlds)', 5, sums(await overHttp(server.url, 'default', COUNT, WARMUP))))
  } finally {
    await stopChild(server)
    // What the server said on stderr is shown, as when it wrote to this process's own.
    process.stderr.write(server.stderr())
  }
  return rows
}

/**
 * `beforeEach(() => sim.reset())` after a test that created a user (untimed, through `sim.fetch`): the users are loaded again.
 *
 * @param {string | object} scenario
 */
async function resets(scenario) {
  const sim = createSimulator({ seed: 1, clock: CLOCK, scenario })
  await sim.ready
  const body = JSON.stringify({ username: 'grace.hopper', email: 'grace.hopper@example.com', password: 'correct-horse' })
  return timedResets(sim, async () => {
    const response = await sim.fetch(new Request('http://localhost/admin/api/v1.2/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body }))
    if (response?.status !== 201) throw new Error(`POST /admin/api/v1.2/users answered ${response?.status}`)
  })
}

/**
 * `WARMUP + COUNT` times: `write` (untimed), then `sim.reset()` (timed); the times after the warm-up.
 *
 * @param {{ reset: () => Promise<unknown> }} sim
 * @param {() => Promise<unknown>} write
 */
async function timedResets(sim, write) {
  const times = []
  for (let i = 0; i < WARMUP + COUNT; i++) {
    await write()
    const started = performance.now()
    await sim.reset()
    if (i >= WARMUP) times.push(performance.now() - started)
  }
  return times
}

/** Reset after a product update, a new pair, a resource changed in place and a token renamed: four sections loaded again. */
async function resetsAfterWrites() {
  const sim = createSimulator({ seed: 1, clock: CLOCK })
  await sim.ready
  const json = { 'content-type': 'application/json' }
  return timedResets(sim, async () => {
    await sim.fetch(new Request('http://localhost/core/products/prod-1001', { method: 'PUT', headers: json, body: '{"stock":1}' }))
    await sim.fetch(new Request('http://localhost/quantum/v1/entangle', { method: 'POST', headers: json, body: '{"particle_type":"electron"}' }))
    // Written directly, as a test may: reset must see it without a request.
    const db = /** @type {any} */ (sim.db)
    db.resources.all()[0].data.touched = true
    await db.tokens.update((/** @type {any} */ q) => q.where({ token_id: db.tokens.all()[0].token_id }), {
      data: (/** @type {{ name: string }} */ token) => void (token.name = 'renamed'),
    })
  })
}

/** A vitest-style test: reset, then list users, read one, create one and log in, each through msw. */
async function typicalTests() {
  const sim = createSimulator({ seed: 1, clock: CLOCK })
  const server = setupServer(...sim.handlers)
  server.listen({ onUnhandledRequest: 'error' })
  try {
    await sim.ready
    const someone = sim.db.users.findFirst((q) => q.where({ status: 'active' }))
    if (!someone) throw new Error('the default world has no active user')
    const users = 'http://localhost/admin/api/v1.2/users'
    const json = { 'content-type': 'application/json' }
    const created = JSON.stringify({ username: 'grace.hopper', email: 'grace.hopper@example.com', password: 'correct-horse' })
    const login = JSON.stringify({ username: someone.username, password: 'Passw0rd!' })
    const expect = async (/** @type {Response} */ response, /** @type {number} */ status) => {
      await response.arrayBuffer()
      if (response.status !== status) throw new Error(`${response.url} answered ${response.status}, not ${status}`)
    }
    const times = []
    for (let i = 0; i < WARMUP + COUNT; i++) {
      const started = performance.now()
      await sim.reset()
      await expect(await fetch(`${users}?limit=20`), 200)
      await expect(await fetch(`${users}/${someone.id}`), 200)
      await expect(await fetch(users, { method: 'POST', headers: json, body: created }), 201)
      await expect(await fetch('http://localhost/general/auth/login', { method: 'POST', headers: json, body: login }), 200)
      if (i >= WARMUP) times.push(performance.now() - started)
    }
    return times
  } finally {
    server.close()
  }
}

/** @param {import('./worlds.js').WorldTimes} times */
function sums({ create, delete: remove }) {
  return create.map((ms, i) => ms + remove[i])
}

/**
 * `limitMs` undefined: a figure shown for information, `met: null`.
 *
 * @param {string} target
 * @param {number | undefined} limitMs
 * @param {number[]} times
 * @returns {TargetRow}
 */
function row(target, limitMs, times) {
  const measured = median(times)
  const text = `${measured.toFixed(2)} ms (median of ${times.length})`
  if (limitMs === undefined) return { target, limit: '—', measured: text, met: null }
  return { target, limit: `≤ ${limitMs} ms`, measured: text, met: measured <= limitMs }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of targetLines(await testSuiteRows())) log(line)
}
