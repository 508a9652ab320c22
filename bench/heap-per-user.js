// @ts-check
// What one seeded user costs in-process: heap bytes per user after full GCs, and the seeding time and CPU of a world of N generated users.
//
// Measured deterministically (no load generator), as the median of several seedings.
//
//   npm run build && node --expose-gc bench/heap-per-user.js [users] [rounds]
//
// Prints one JSON line: { users, rounds, heapBytesPerUser, seedMs, seedCpuMs, rssMb, stateMs }.
// bench/scale.js runs it as part of `npm run bench -- --scale`.

import { median } from './lib/median.js'
import { setting } from './switches.js'

const USERS = setting('<users>')
const ROUNDS = setting('<rounds>')
const CLOCK = '2026-01-01T00:00:00Z'

if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc')
  process.exit(2)
}
const gc = /** @type {() => void} */ (globalThis.gc)
const { createSimulator } = await import(new URL('../dist/src/index.js', import.meta.url).href)

/** Full GCs until the heap stops shrinking, with turns of the event loop between them (finalizers, weak refs). */
async function settle() {
  for (let i = 0; i < 4; i++) {
    gc()
    await new Promise((resolve) => setImmediate(resolve))
  }
  return process.memoryUsage()
}

// The same simulator with no users, so the figure is the users' share alone.
const empty = createSimulator({ seed: 1, clock: CLOCK, scenario: { accounts: { generate: { active: 0 } } } })
await empty.ready
const rounds = []
// Every world stays alive to the end: a world dropped between two figures could be
// collected in the middle of the next one (its timers let go of it late) and skew it.
const worlds = []
for (let round = 0; round < ROUNDS; round++) {
  const before = await settle()
  const cpu = process.cpuUsage()
  const started = performance.now()
  const sim = createSimulator({ seed: 1, clock: CLOCK, scenario: { accounts: { generate: { active: USERS } } } })
  await sim.ready
  worlds.push(sim)
  const seedMs = performance.now() - started
  const { user, system } = process.cpuUsage(cpu)
  const after = await settle()
  const exported = performance.now()
  JSON.stringify(sim.exportState())
  const stateMs = performance.now() - exported
  rounds.push({ heap: (after.heapUsed - before.heapUsed) / USERS, seedMs, cpuMs: (user + system) / 1000, rss: after.rss / 2 ** 20, stateMs })
}

const figures = {
  users: USERS,
  rounds: ROUNDS,
  heapBytesPerUser: Math.round(median(rounds.map((r) => r.heap))),
  seedMs: Math.round(median(rounds.map((r) => r.seedMs))),
  seedCpuMs: Math.round(median(rounds.map((r) => r.cpuMs))),
  rssMb: Math.round(median(rounds.map((r) => r.rss))),
  stateMs: Math.round(median(rounds.map((r) => r.stateMs))),
}
console.log(JSON.stringify(figures))
