import * as z from 'zod'
import type { SignatureMode } from '../areas/ledger/staking/signatures.js'
import { AREA_IDS, type AreaId, areaFromText, areaIdSchema, areaOptionsShape } from '../areas/registry.js'
import { formatByteSize, parseByteSize } from '../kernel/http/byte-size.js'
import { DEFAULT_BODY_LIMIT, MAX_BODY_LIMIT } from '../kernel/http/json/json-body.js'
import { integerText, option } from '../kernel/options/option-meta.js'
import { MAX_SEED, seedSchema } from '../kernel/random/seed.js'
import type { Clock } from '../kernel/time/clock.js'
import { clockOptionSchema } from '../kernel/time/sim-clock.js'
import { DEFAULT_INGEST_POINTS } from '../world/world.js'
import { parseBaseUrl } from './pipeline/base-url.js'
import { type FaultRuleInput, faultRulesSchema } from './faults/fault-rule.js'
import { DEFAULT_JOURNAL_BODY_LIMIT, DEFAULT_JOURNAL_SIZE } from './journal/journal.js'
import type { ScenarioInput } from './state/scenario-schema.js'
import { type WorldsOptions, worldsOptionsSchema } from './worlds/worlds-options.js'

/** The seed used when none is given, so two runs agree by default (D24). */
export const DEFAULT_SEED = 1

const COUNT = 'expected an integer of 0 or more'
const POSITIVE = 'expected a positive integer'
const BODY_LIMIT = `expected a number of bytes from 1 to ${MAX_BODY_LIMIT} (${formatByteSize(MAX_BODY_LIMIT)})`
const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value)
const isFunction = (value: unknown) => typeof value === 'function'

const baseUrl = z.string('expected a base URL').refine((value) => {
  try {
    parseBaseUrl(value)
    return true
  } catch {
    return false
  }
}, 'expected an absolute URL or a path starting with "/", without query or fragment')

/**
 * The options of `createSimulator`, one schema: the simulator's own and every
 * area's (`src/areas/registry.ts`). `startServer` and `startBrowserSimulator`
 * extend it; the CLI's flags are the options that name one (`option()`).
 */
export const simulatorOptionsSchema = z.object(
  {
    /** Seed of every random value and id (D24): an integer from 0 to 4294967295 (2^32 - 1). Default: the scenario's, else 1. */
    seed: option(seedSchema().optional(), {
      cli: {
        flag: '-s, --seed <n>',
        description: `seed for every generated value and id, 0 to ${MAX_SEED} (default: the scenario's, else ${DEFAULT_SEED})`,
        fromText: integerText,
      },
    }),
    /** A frozen ISO instant (`'2026-01-01T00:00:00Z'`), `'system'` (default) or a `Clock`; movable either way (`sim.clock`). */
    clock: option(clockOptionSchema.optional(), {
      cli: { flag: '-c, --clock <instant>', description: 'freeze time at an ISO 8601 instant for reproducible timestamps, or "system"' },
    }),
    /** A built-in or registered scenario name, or a scenario object. Default `'default'`. */
    scenario: z.custom<string | ScenarioInput>((value) => typeof value === 'string' || isObject(value), 'expected a scenario name or a scenario object').optional(),
    /** Extra named scenarios, loadable by name like the built-ins (e.g. from files). */
    scenarios: z.record(z.string(), z.custom<ScenarioInput>(isObject, 'expected a scenario object')).optional(),
    /** Which areas to mount. Default: all. */
    areas: z.array(areaIdSchema, 'expected a list of area ids').optional(),
    /** Per-area base URL: absolute (`https://admin.example.com`) or a path prefix. Default: the D1 prefixes. */
    baseUrls: z.partialRecord(areaIdSchema, baseUrl.optional()).optional(),
    /** Areas also mounted at `/` (D2). Two that define the same route are refused. */
    root: option(z.array(areaIdSchema, 'expected a list of area ids').optional(), {
      cli: { flag: '--root <area>', description: `also mount an area at "/" (repeatable; one of ${AREA_IDS.join(', ')})`, fromText: areaFromText, repeatable: true },
    }),
    /** Body and batch limits (D11, D15): `bodyBytes` (default 1 MiB, at most 256 MiB), `ingestPoints` (default 10,000). */
    limits: z
      .object({
        bodyBytes: option(z.int(BODY_LIMIT).min(1, BODY_LIMIT).max(MAX_BODY_LIMIT, BODY_LIMIT).default(DEFAULT_BODY_LIMIT), {
          label: 'body limit',
          cli: {
            flag: '--body-limit <size>',
            description: 'largest request body an area route reads, in bytes or with kb, mb (e.g. 512kb, 2mb); larger bodies get 413 payload_too_large',
            defaultText: formatByteSize(DEFAULT_BODY_LIMIT),
            fromText: parseByteSize,
          },
        }),
        ingestPoints: z.int(POSITIVE).positive(POSITIVE).default(DEFAULT_INGEST_POINTS),
      })
      .prefault({}),
    /** Called with unexpected errors (bugs), which answer 500 `internal_error`. */
    onInternalError: z.custom<(error: unknown, request: { readonly method: string; readonly url: string }) => void>(isFunction, 'expected a function').optional(),
    /** Request journal: entries kept (default 1,000; 0 turns it off) and characters kept of each body (default 8,192). */
    journal: z
      .object({
        size: option(z.int(COUNT).min(0, COUNT).default(DEFAULT_JOURNAL_SIZE), {
          cli: { flag: '--journal-size <n>', description: 'requests kept in the journal (GET /__mock/requests); 0 turns it off', fromText: integerText },
        }),
        bodyLimit: option(z.int(COUNT).min(0, COUNT).default(DEFAULT_JOURNAL_BODY_LIMIT), {
          cli: { flag: '--journal-body-limit <chars>', description: 'characters of each request and response body the journal keeps; 0 keeps none', fromText: integerText },
        }),
      })
      .prefault({}),
    /** Fault rules in force from the start, before the scenario's own `faults`. */
    faults: option(faultRulesSchema.optional(), { document: 'faults option' }),
    /** Isolated worlds (`sim.worlds`, `POST /__mock/worlds`): how many at once, when idle ones expire, how many records each and all may be seeded with. */
    worlds: worldsOptionsSchema,
    ...areaOptionsShape,
  },
  'expected an object of options',
)

/**
 * The options of `createSimulator`, as a user writes them: every field optional,
 * checked by `simulatorOptionsSchema` (a bad value is a `ConfigError` naming it).
 * Named here, not derived with `z.input`, so the API report and editors show it
 * by name; options.types.test.ts holds it equal to the schema's input type.
 *
 * @example
 * const options: SimulatorOptions = { seed: 7, clock: '2026-01-01T00:00:00Z', areas: ['core', 'admin'] }
 * const sim = createSimulator(options)
 */
export type SimulatorOptions = {
  /** Seed of every random value and id (D24): an integer from 0 to 4294967295 (2^32 - 1). Default: the scenario's, else 1. */
  seed?: number | undefined
  /** A frozen ISO instant (`'2026-01-01T00:00:00Z'`), `'system'` (default) or a `Clock`; movable either way (`sim.clock`). */
  clock?: string | Clock | undefined
  /** A built-in or registered scenario name, or a scenario object. Default `'default'`. */
  scenario?: string | ScenarioInput | undefined
  /** Extra named scenarios, loadable by name like the built-ins (e.g. from files). */
  scenarios?: Record<string, ScenarioInput> | undefined
  /** Which areas to mount. Default: all. */
  areas?: AreaId[] | undefined
  /** Per-area base URL: absolute (`https://admin.example.com`) or a path prefix. Default: the D1 prefixes. */
  baseUrls?: Partial<Record<AreaId, string | undefined>> | undefined
  /** Areas also mounted at `/` (D2). Two that define the same route are refused. */
  root?: AreaId[] | undefined
  /** Body and batch limits (D11, D15): `bodyBytes` (default 1 MiB, at most 256 MiB), `ingestPoints` (default 10,000). */
  limits?: { bodyBytes?: number | undefined; ingestPoints?: number | undefined } | undefined
  /** Called with unexpected errors (bugs), which answer 500 `internal_error`. */
  onInternalError?: ((error: unknown, request: { readonly method: string; readonly url: string }) => void) | undefined
  /** Request journal: entries kept (default 1,000; 0 turns it off) and characters kept of each body (default 8,192). */
  journal?: { size?: number | undefined; bodyLimit?: number | undefined } | undefined
  /** Fault rules in force from the start, before the scenario's own `faults`. */
  faults?: FaultRuleInput[] | undefined
  /** Isolated worlds (`sim.worlds`, `POST /__mock/worlds`): how many at once, when idle ones expire, how many records each and all may be seeded with. */
  worlds?: WorldsOptions | undefined
  /** Area B: ingested points kept per sensor (`sensorWindow`, default 10,000) and in all (`window`, default 500,000); 0 keeps none. */
  ingestion?: { sensorWindow?: number | undefined; window?: number | undefined } | undefined
  /** Area D access tokens (D7): the HS256 `secret` (default: derived from the seed) and the lifetime `expiresIn` in seconds (default 3600). */
  auth?: { secret?: string | undefined; expiresIn?: number | undefined } | undefined
  /** Area E: how delegation signatures are checked (D23): `format` (default, shape only), `eip191` or `eip712`. */
  signatureMode?: SignatureMode | undefined
  /** Area E: time between blocks (D21), milliseconds or a duration like `'6s'`. Default: the scenario's, else 6 s. */
  blockTime?: number | string | undefined
}
/** The options as checked, defaults filled in. */
export type CheckedOptions = z.output<typeof simulatorOptionsSchema>

/** Default for `onInternalError`: a simulator bug must not pass silently in a test run. */
export function reportInternalError(error: unknown, request: { readonly method: string; readonly url: string }): void {
  console.error(`[multi-area-mock] internal error on ${request.method} ${request.url}:`, error)
}
