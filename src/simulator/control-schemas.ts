import * as z from 'zod'
import { isoInstant } from '../kernel/time/iso-instant.js'
import { atLeastOneOf, withRules } from '../kernel/schema/object-rules.js'
import { DURATION_PATTERN } from '../kernel/time/sim-clock.js'
import { isoTimestamp } from '../kernel/time/iso-timestamp.js'

const DURATION = 'must be milliseconds or a duration such as "90s", "15m", "2h"'

/**
 * `POST /__mock/clock`: applied in the order mode, set, advance; at least one of
 * them. Whether `advance` keeps the clock within the years 0000–9999 depends on
 * where the clock stands, so the route checks that (400, nothing moved).
 */
export const clockBody = withRules(
  z.object({
    mode: z.enum(['fixed', 'system'], 'must be "fixed" (time stands still) or "system" (time runs)').optional().describe('`fixed`: time stands still; `system`: time runs.'),
    set: isoInstant.optional().describe('An ISO 8601 instant to move to, with a zone: `2026-01-01T00:00:00Z`.'),
    advance: z
      .union([z.number(DURATION), z.string(DURATION).regex(DURATION_PATTERN, DURATION)], DURATION)
      .optional()
      .describe(
        'Milliseconds (negative goes back), or a duration such as `"90s"`, `"15m"`, `"2h"`, `"-1d"` (units `ms`, `s`, `m`, `h`, `d`). Refused (400) when it would move the clock out of the years 0000–9999.',
      ),
  }),
  [atLeastOneOf(['mode', 'set', 'advance'])],
)

/** `GET`/`POST /__mock/clock` answer. */
export const clockView = z
  .object({ now: isoTimestamp, fixed: z.boolean().describe('`true` while time stands still.') })
  .meta({ id: 'ClockView', description: 'The simulator clock (D4, D24).' })

/** `GET /__mock/health` answer. */
export const health = z
  .object({
    status: z.literal('ok'),
    seed: z.int(),
    scenario: z.string(),
    clock: clockView,
    areas: z.array(
      z.object({
        id: z.string(),
        letter: z.string(),
        title: z.string(),
        baseUrls: z.array(z.string()).describe('Where the area is mounted: its prefix (D1), `/` if also at the root (D2), or an absolute URL.'),
      }),
    ),
  })
  .meta({ id: 'Health', description: 'Liveness, seed, scenario, clock and mounted areas.' })

/** `GET /__mock/scenarios` answer. */
export const scenarioList = z.array(z.object({ name: z.string(), description: z.string(), active: z.boolean() })).meta({ id: 'ScenarioList' })

/** `{name}` of `POST /__mock/scenarios/{name}`. */
export const scenarioParams = z.object({ name: z.string().min(1).describe('A built-in scenario (`default`, `empty`, `pending-users`) or one registered with the simulator.') })

/** Extra field of the unknown-scenario 404. */
export const unknownScenarioExtra = z.object({ available: z.array(z.string()) })

/** Answers of reset and scenario loading. */
export const resetResult = z.object({ status: z.literal('reset'), scenario: z.string() })
export const loadResult = z.object({ status: z.literal('loaded'), scenario: z.string() })

/** `PUT /__mock/state` answer. */
export const replaceResult = z.object({
  status: z.literal('replaced'),
  counts: z.record(z.string(), z.int().min(0)).describe('Records per collection; `readings`: the ingested points kept (D15 window).'),
})

/** `GET /__mock/openapi.json` query. */
export const openApiQuery = z.object({
  area: z.string().optional().describe('Only this area (`admin`, `core`...): its own paths, its base URLs as servers.'),
})

/** `GET /__mock/openapi.json` answer: this very kind of document. */
export const openApiDocumentSchema = z
  .object({
    openapi: z.literal('3.1.0'),
    info: z.object({ title: z.string(), version: z.string() }).loose(),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .loose()
  .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document.' })
