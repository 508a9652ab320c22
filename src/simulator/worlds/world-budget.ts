import * as z from 'zod'
import { ApiError } from '../../kernel/errors/api-error.js'
import { describeRecords, formatCount, type RecordCounts, totalRecords } from './world-records.js'

/** The 413 of a world past `maxRecords`, as the routes that seed a world document it. */
export const worldTooLargeError = {
  code: 'world_too_large',
  extra: z.object({
    limit: z.int().min(0).describe('Records one isolated world may be seeded with (`--max-world-records`).'),
    records: z.int().min(0).describe('Records the world would hold.'),
  }),
  description:
    'An isolated world would be seeded with more records than one world may hold (`--max-world-records`); counted before anything is generated, nothing was created or changed.',
} as const

/** What the 409 of all worlds past `maxTotalRecords` adds to the body. */
export const worldRecordsConflictShape = {
  limit: z.int().min(0).describe('Records all isolated worlds together may be seeded with (`--max-total-world-records`).'),
  records: z.int().min(0).describe('Records this world would hold.'),
  inUse: z.int().min(0).describe('Records the other isolated worlds hold.'),
}

/** The 409 of all worlds past `maxTotalRecords`, as the routes that load into a world document it. */
export const worldRecordsConflictError = {
  code: 'conflict',
  extra: z.object(worldRecordsConflictShape),
  description: 'The isolated worlds together would hold more records than `--max-total-world-records`: delete one or let idle ones expire; nothing was changed.',
} as const

/** The two limits, as `worlds.maxRecords` and `worlds.maxTotalRecords` set them. */
export interface WorldBudgetLimits {
  maxRecords: number
  maxTotalRecords: number
}

/**
 * What the isolated worlds of one simulator may hold, in records (users,
 * products, particles, resources... as `sim.counts()` counts them): at most
 * `maxRecords` per world and `maxTotalRecords` in all. A world is charged what
 * last seeded it (its scenario, or the last state document put into it),
 * counted from what that declares, so a refusal comes before anything is
 * generated and leaves nothing behind. Growth through the areas' own API
 * (one record per request) is not charged. The default world is never
 * charged: its size is the user's own choice (`--scenario`).
 *
 * @example
 * const budget = new WorldBudget({ maxRecords: 10_000, maxTotalRecords: 100_000 })
 * const undo = budget.admit('w1', { users: 5_000 }) // throws ApiError past a limit
 * budget.release('w1')
 */
export class WorldBudget {
  readonly maxRecords: number
  readonly maxTotalRecords: number
  readonly #held = new Map<string, number>()

  constructor(limits: WorldBudgetLimits) {
    this.maxRecords = limits.maxRecords
    this.maxTotalRecords = limits.maxTotalRecords
  }

  /** Records the worlds hold in all. */
  get total(): number {
    let total = 0
    for (const records of this.#held.values()) total += records
    return total
  }

  /** Records world `id` is charged (0 when none). */
  of(id: string): number {
    return this.#held.get(id) ?? 0
  }

  /**
   * Charges world `id` with `counts` from now on, in place of what it held,
   * once both limits allow it: else a 413 `world_too_large` (one world past
   * `maxRecords`) or a 409 `conflict` (all worlds past `maxTotalRecords`), and
   * nothing changes. `charged: false` (a world already removed) checks the
   * first limit only. Returns the undo, for a load that fails after all.
   */
  admit(id: string, counts: RecordCounts, charged = true): () => void {
    const records = totalRecords(counts)
    if (records > this.maxRecords) {
      throw new ApiError(
        413,
        'world_too_large',
        `A world may hold at most ${formatCount(this.maxRecords)} records (--max-world-records; in-process: worlds.maxRecords); this one would hold ${formatCount(records)} (${describeRecords(counts)}). Nothing was created or changed.`,
        { extra: { limit: this.maxRecords, records } },
      )
    }
    if (!charged) return () => undefined
    const before = this.#held.get(id)
    const others = this.total - (before ?? 0)
    if (others + records > this.maxTotalRecords) {
      throw new ApiError(
        409,
        'conflict',
        `The isolated worlds may hold at most ${formatCount(this.maxTotalRecords)} records in all (--max-total-world-records; in-process: worlds.maxTotalRecords); the others hold ${formatCount(others)} and this one would hold ${formatCount(records)}. Delete a world (DELETE /__mock/worlds/{id}) or let idle ones expire; nothing was created or changed.`,
        { extra: { limit: this.maxTotalRecords, records, inUse: others } },
      )
    }
    this.#held.set(id, records)
    return () => {
      // Only if nothing charged the world since (a later load, a removal).
      if (this.#held.get(id) !== records) return
      if (before === undefined) this.#held.delete(id)
      else this.#held.set(id, before)
    }
  }

  /** Charges world `id` with `records` as a family snapshot says, without checking the limits (they were checked when it was charged). */
  restore(id: string, records: number): void {
    this.#held.set(id, records)
  }

  /** The world is gone: what it held is free again. */
  release(id: string): void {
    this.#held.delete(id)
  }
}

/**
 * Runs `load` on an isolated world once the limits allow what it holds after
 * (`counts`), giving the records back if the load fails. (The default world
 * is never limited: its callers load it directly.)
 *
 * @example
 * await admitted(registry, sim.worldId, stateRecords(state), () => lifecycle.importState(state))
 */
export async function admitted(registry: { admit(id: string, counts: RecordCounts): () => void }, worldId: string, counts: RecordCounts, load: () => Promise<void>): Promise<void> {
  const undo = registry.admit(worldId, counts)
  try {
    await load()
  } catch (error) {
    undo()
    throw error
  }
}
