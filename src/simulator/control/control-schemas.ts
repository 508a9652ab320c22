import * as z from 'zod'
import { OPEN } from '../../kernel/schema/open-object.js'
import { ALL_AREAS, AREA_IDS } from '../../areas/registry.js'
import { EARLIEST_INSTANT_MS, isoInstant, LATEST_INSTANT_MS } from '../../kernel/time/iso-instant.js'
import { atLeastOneOf, withRules } from '../../kernel/schema/object-rules.js'
import { DURATION_PATTERN } from '../../kernel/time/sim-clock.js'
import { isoTimestamp } from '../../kernel/time/iso-timestamp.js'

const DURATION = 'must be milliseconds or a duration such as "90s", "15m", "2h"'
const OUT_OF_RANGE = 'would move the clock out of the years 0000 to 9999'
/** The longest move that can keep the clock within the years 0000–9999: from one end to the other. */
const CLOCK_SPAN_MS = LATEST_INSTANT_MS - EARLIEST_INSTANT_MS

/**
 * `POST /__mock/clock`: applied in the order mode, set, advance; at least one of
 * them. Whether `advance` keeps the clock within the years 0000–9999 depends on
 * where the clock stands, so the route checks that (400, nothing moved).
 */
export const clockBody = withRules(
  z.object({
    mode: z.enum(['fixed', 'system'], 'must be "fixed" (time stands still) or "system" (time runs)').optional().describe('`fixed`: time stands still; `system`: time runs.'),
    set: isoInstant.optional().describe('An ISO 8601 instant to move to, with a zone (`2026-01-01T00:00:00Z`), within the years 0000 to 9999 in UTC.'),
    advance: z
      .union([z.number(DURATION).min(-CLOCK_SPAN_MS, OUT_OF_RANGE).max(CLOCK_SPAN_MS, OUT_OF_RANGE), z.string(DURATION).regex(DURATION_PATTERN, DURATION)], DURATION)
      .optional()
      .describe(
        'Milliseconds (negative goes back), or a duration such as `"90s"`, `"15m"`, `"2h"`, `"-1d"` (units `ms`, `s`, `m`, `h`, `d`). The clock stays within the years 0000–9999 (UTC): a move that would take it out, from where it stands (or from `set`), is refused (400 `advance: would move the clock out of the years 0000 to 9999`) and nothing changes.',
      ),
  }),
  [atLeastOneOf(['mode', 'set', 'advance'])],
)

/** `GET`/`POST /__mock/clock` answer. */
export const clockView = z
  .object({ now: isoTimestamp, fixed: z.boolean().describe('`true` while time stands still.') })
  .meta({ id: 'ClockView', description: 'The simulator clock (D4, D24).' })

/** An area's id (D1). */
const areaId = z.enum(AREA_IDS, `must be one of ${AREA_IDS.join(', ')}`)
/** An area's letter (D1), `A` to `E` in mounting order. */
const areaLetter = z.enum(ALL_AREAS.map((area) => area.letter) as [string, ...string[]])

/** `GET /__mock/health` answer. */
export const health = z
  .object({
    status: z.literal('ok'),
    seed: z.int(),
    scenario: z.string(),
    clock: clockView,
    areas: z.array(
      z.object({
        id: areaId,
        letter: areaLetter,
        title: z.string(),
        baseUrls: z.array(z.string()).describe('Where the area is mounted: its prefix (D1), `/` if also at the root (D2), or an absolute URL.'),
      }),
    ),
    store: z
      .object({
        store: z.string().describe('What keeps the worlds, without any password, e.g. `redis://127.0.0.1:6379/0`.'),
        up: z.literal(true),
        applied: z.string().describe("The position of the last command of the store's log applied by this replica."),
      })
      .optional()
      .describe('Only with `serve --store`: the store replicas share. While it cannot be reached, this answers 503 `store_unavailable`.'),
  })
  .meta({ id: 'Health', description: 'Liveness, seed, scenario, clock and mounted areas.' })

/** `GET /__mock/scenarios` answer. */
export const scenarioList = z.array(z.object({ name: z.string(), description: z.string(), active: z.boolean() })).meta({ id: 'ScenarioList' })

/** `{name}` of `POST /__mock/scenarios/{name}`. */
export const scenarioParams = z.object({
  name: z
    .string()
    .min(1)
    .describe(
      'A scenario this server knows, as `GET /__mock/scenarios` lists them: a built-in one (`default`, `empty`...) or one registered with the simulator (`scenarios` option). Another name is a 404 whose `available` lists the known ones; nothing changes.',
    ),
})

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
  area: areaId.optional().describe('Only this area (`admin`, `core`...): its own paths, its base URLs as servers. An area this server does not mount is a 404.'),
})

/** `GET /__mock/openapi.json` answer: this very kind of document. */
export const openApiDocumentSchema = z
  .object({
    openapi: z.literal('3.1.0'),
    info: z.object({ title: z.string(), version: z.string() }).loose().meta(OPEN),
    paths: z.record(z.string(), z.record(z.string(), z.unknown()).meta(OPEN)),
  })
  .loose()
  .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document.', ...OPEN })
