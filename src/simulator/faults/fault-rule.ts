import * as z from 'zod'
import { AREA_IDS } from '../../areas/registry.js'
import { atLeastOneOf, notTogether, onlyWhen, withRules } from '../../kernel/schema/object-rules.js'

/**
 * The statuses a fault can answer with: any client or server error, 400 to 599
 * (401, 403, 404 and 409 as much as 5xx). 429 and 503 also carry `Retry-After`.
 *
 * @example
 * FAULT_STATUS_RANGE.min <= 404 && 404 <= FAULT_STATUS_RANGE.max // true
 */
export const FAULT_STATUS_RANGE = { min: 400, max: 599 } as const

/** An HTTP error status from 400 to 599 (`FAULT_STATUS_RANGE`); TypeScript cannot state the range, the schema checks it. */
export type FaultStatus = number

/** Statuses whose fault answer carries `Retry-After` (and `retry_after` in the body). */
export const RETRY_AFTER_STATUSES = [429, 503] as const

const STATUS = `must be an HTTP error status from ${FAULT_STATUS_RANGE.min} to ${FAULT_STATUS_RANGE.max}`

/** Longest injected delay: beyond it a client's own timeout is what a test is really about. */
export const MAX_FAULT_DELAY_MS = 60_000

const delayMs = z.int('must be an integer number of milliseconds').min(0, 'must be at least 0').max(MAX_FAULT_DELAY_MS, `must be at most ${MAX_FAULT_DELAY_MS}`)

/**
 * One fault rule, as the `faults` option, a scenario's `faults` section and
 * `PUT /__mock/faults` take it. It matches requests by area, method and route
 * (all optional: a rule without any matches every area request) and has at least
 * one effect: `latency`, an error `status`, or `drop`. `probability` and `times`
 * limit how often it fires; draws come from a generator seeded by the world's seed.
 *
 * @example
 * faultRuleSchema.parse({ method: 'POST', route: '/core/users', status: 503, probability: 0.5, times: 3 })
 */
export const faultRuleSchema = withRules(
  z.strictObject({
    area: z
      .enum(AREA_IDS, `must be one of ${AREA_IDS.join(', ')}`)
      .optional()
      .describe('Only requests to this area (D1 id).'),
    method: z
      .enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], 'must be one of GET, POST, PUT, PATCH, DELETE (upper case)')
      .optional()
      .describe('Only requests with this method (HEAD counts as GET).'),
    route: z
      .string()
      // A pattern rather than `startsWith`, which JSON Schema shows as the unknown format `starts_with`.
      .regex(/^\//, 'must start with "/"')
      .optional()
      .describe('A route pattern (`/api/v1.2/users/{userId}`), a path glob (`/core/products/*`, `**` for any depth) or a path; with or without the area prefix.'),
    latency: z
      .union(
        [delayMs, z.tuple([delayMs, delayMs]).refine(([min, max]) => min <= max, 'the first number (minimum) must not exceed the second (maximum)')],
        'must be milliseconds or [min, max]',
      )
      .optional()
      .describe('Delay before answering, in ms: fixed, or drawn uniformly from [min, max] (min ≤ max).'),
    status: z
      .int(STATUS)
      .min(FAULT_STATUS_RANGE.min, STATUS)
      .max(FAULT_STATUS_RANGE.max, STATUS)
      .optional()
      .describe(
        'Answer with this error status (400-599) and a D9 body instead of running the route: the code named after the status (`not_found`, `conflict`, `forbidden`, …), `client_error` or `server_error` for a status without a name. Not with `drop`.',
      ),
    retryAfter: z.int().min(0).max(86_400).optional().describe('Seconds in the Retry-After header of a 429 or 503 (default 1); only with `status` 429 or 503.'),
    drop: z.literal(true, 'must be true').optional().describe('Close the connection without an answer (in-process: a network error). Not with `status`.'),
    probability: z.number().min(0, 'must be at least 0').max(1, 'must be at most 1').optional().describe('Chance that a matching request is hit (default 1).'),
    times: z.int().min(1, 'must be at least 1').optional().describe('Fire at most this many times (until reset or the rules are replaced).'),
  }),
  [
    atLeastOneOf(['latency', 'status', 'drop'], 'give at least one effect: latency, status or drop'),
    notTogether('status', 'drop'),
    onlyWhen('retryAfter', 'status', RETRY_AFTER_STATUSES, 'only a 429 or 503 carries Retry-After'),
  ],
).meta({ id: 'FaultRule', title: 'Fault rule' })

export type FaultRule = z.output<typeof faultRuleSchema>
export type FaultRuleInput = z.input<typeof faultRuleSchema>

/** A list of fault rules (option, scenario section, `PUT /__mock/faults` body's `rules`). */
export const faultRulesSchema = z.array(faultRuleSchema)

/**
 * A rule as `GET /__mock/faults` and `sim.faults.list()` show it: as given,
 * plus how often it fired. Built from the rule's fields rather than extending
 * the rule, so the view carries none of the input checks.
 */
export const faultRuleViewSchema = z
  .strictObject({
    ...faultRuleSchema.shape,
    fired: z.int().min(0).describe('How often the rule fired since it was set (or since the last reset).'),
  })
  .meta({ id: 'FaultRuleView', description: 'A fault rule in force, with how often it fired.' })
