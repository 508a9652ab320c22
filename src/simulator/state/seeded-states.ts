import type { WorldState } from './scenario-schema.js'

/** Seeded states kept per simulator family: enough for the few scenarios a suite's worlds use. */
const DEFAULT_KEPT = 8

/**
 * The states scenario loads produced in one simulator family (the simulator and
 * its worlds), keyed by everything a load depends on beyond the family's
 * options: the scenario, the seed and the frozen clock's instant. A world made
 * with the same three imports the kept state (shared frozen accounts, copies of
 * the rest) instead of seeding again with faker and PBKDF2: the same state,
 * for a fraction of the cost (bench/test-suite.js). Owned by one simulator,
 * never module-level; a kept state is never written to (imports copy from it,
 * accounts are frozen). Oldest dropped first.
 *
 * @example
 * const seeded = new SeededStates()
 * const key = seededKey('default', undefined, 1, Date.parse('2026-01-01T00:00:00Z'))
 * seeded.get(key!) // undefined until a load with that key is kept
 */
export class SeededStates {
  readonly #kept = new Map<string, WorldState>()
  readonly #max: number

  constructor(max = DEFAULT_KEPT) {
    this.#max = max
  }

  get(key: string): WorldState | undefined {
    return this.#kept.get(key)
  }

  set(key: string, state: WorldState): void {
    this.#kept.delete(key)
    if (this.#kept.size >= this.#max) this.#kept.delete(this.#kept.keys().next().value!)
    this.#kept.set(key, state)
  }
}

/**
 * What a load depends on besides the family's options; `undefined` when the
 * clock runs (each load then stamps a different instant, so none is kept).
 * A scenario counts by its validated content, a named one too: what a name
 * holds may change while the server runs (`serve --watch`).
 *
 * @example
 * seededKey('custom', { accounts: { users: [] } }, 7, 0) // 'custom {"accounts":{"users":[]}} 7 0'
 */
export function seededKey(name: string, scenario: unknown, seed: number, fixedClockMs: number | undefined): string | undefined {
  if (fixedClockMs === undefined) return undefined
  return `${name} ${JSON.stringify(scenario)} ${seed} ${fixedClockMs}`
}
