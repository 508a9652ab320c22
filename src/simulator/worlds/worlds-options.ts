import * as z from 'zod'
import { integerText, option } from '../../kernel/options/option-meta.js'
import { durationSchema } from '../../kernel/time/sim-clock.js'

/** Most worlds alive at once besides the default one, by default. */
export const DEFAULT_MAX_WORLDS = 32
/** Idle time after which a world is removed, on the real clock. */
export const DEFAULT_WORLD_IDLE_MS = 30 * 60_000
/**
 * Records one isolated world may be seeded with, by default: measured on the CLI
 * server, 10,000 generated users cost ~10 MB RSS, 10,000 particles ~18 MB, 10,000
 * resources ~35 MB (docs/control-api.md, "Limits"); every built-in scenario fits.
 */
export const DEFAULT_MAX_WORLD_RECORDS = 10_000
/** Records all isolated worlds together may be seeded with, by default: ~100 MB RSS of users, ~350 MB at worst (resources). */
export const DEFAULT_MAX_TOTAL_WORLD_RECORDS = 100_000

const COUNT = 'expected an integer of 0 or more'

/**
 * The `worlds` option of `createSimulator` (`--max-worlds`, `--world-idle`,
 * `--max-world-records`, `--max-total-world-records`).
 *
 * @example
 * createSimulator({ worlds: { max: 8, idle: '10m', maxRecords: 50_000 } })
 */
export const worldsOptionsSchema = z
  .object(
    {
      /** Most worlds alive at once besides the default one (default 32; 0 disables them). */
      max: option(z.int(COUNT).min(0, COUNT).default(DEFAULT_MAX_WORLDS), {
        cli: { flag: '--max-worlds <n>', description: 'isolated worlds alive at once (POST /__mock/worlds); 0 turns them off', fromText: integerText },
      }),
      /** Real time without a request after which a world is removed: ms or `'30m'` (default 30 minutes). */
      idle: option(durationSchema.pipe(z.number().positive('expected a positive duration such as 30m')).default(DEFAULT_WORLD_IDLE_MS), {
        label: 'duration',
        cli: { flag: '--world-idle <duration>', description: 'remove a world after this long without a request (real time)', defaultText: `${DEFAULT_WORLD_IDLE_MS / 60_000}m` },
      }),
      /**
       * Records (users, products, particles, resources...; generated or listed)
       * one isolated world may be seeded with: by the scenario it is made with,
       * or a scenario or state document loaded into it (default 10,000). Counted
       * before anything is generated; the default world is never limited.
       */
      maxRecords: option(z.int(COUNT).min(0, COUNT).default(DEFAULT_MAX_WORLD_RECORDS), {
        cli: {
          flag: '--max-world-records <n>',
          description: 'records (users, products, particles...) one isolated world may be seeded with: its scenario, or a scenario or state loaded into it',
          fromText: integerText,
        },
      }),
      /** Records all isolated worlds together may be seeded with (default 100,000). */
      maxTotalRecords: option(z.int(COUNT).min(0, COUNT).default(DEFAULT_MAX_TOTAL_WORLD_RECORDS), {
        cli: { flag: '--max-total-world-records <n>', description: 'records all isolated worlds together may be seeded with', fromText: integerText },
      }),
      /** Real-time source in ms, for tests of the expiry (default `Date.now`). */
      now: z.custom<() => number>((value) => typeof value === 'function', 'expected a function').optional(),
    },
    'expected an object with max, idle, maxRecords and/or maxTotalRecords',
  )
  .prefault({})
export type WorldsOptions = z.input<typeof worldsOptionsSchema>
