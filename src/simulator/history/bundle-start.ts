import * as z from 'zod'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { issuesToDetails, safeParse } from '../../kernel/http/validate.js'
import { EARLIEST_INSTANT_MS, LATEST_INSTANT_MS, withinClockRange } from '../../kernel/time/iso-instant.js'
import { faultRulesSchema } from '../faults/fault-rule.js'
import { scenarioSchema, worldStateSchema } from '../state/scenario-schema.js'
import type { WorldSnapshot } from '../state/state-lifecycle.js'

const u32 = z.int().min(0).max(0xffffffff)
const IN_RANGE = 'must fall within the years 0000 to 9999'
const SPAN = LATEST_INSTANT_MS - EARLIEST_INSTANT_MS

/** Where a clock stands (`ClockSetting`): an instant it stands still at, or none, and an offset that keeps it within the years 0000 to 9999. */
const clockSettingSchema = z.strictObject({
  frozenAt: z.number().refine(withinClockRange, IN_RANGE).nullable(),
  offset: z.number().min(-SPAN, IN_RANGE).max(SPAN, IN_RANGE),
})

/**
 * A bundle's `start` (`WorldSnapshot`: the world before its first kept
 * command) as a replay takes it: every part checked as the way in that sets
 * it checks it. Its state and what a reset returns to as `PUT /__mock/state`
 * checks a state document (cross-references included); the scenario it was
 * loaded from as a scenario file; its fault rules as `POST /__mock/faults`;
 * its clocks within the years 0000 to 9999.
 *
 * @example
 * const start = bundleStart(bundle.start) // throws a one-line ConfigError
 */
export const bundleStartSchema = z.strictObject({
  scenario: z.string(),
  chosen: z.strictObject({ name: z.string(), scenario: scenarioSchema }).optional(),
  initial: worldStateSchema.optional(),
  initialClock: clockSettingSchema.optional(),
  initialFaults: faultRulesSchema,
  clock: clockSettingSchema,
  faults: z.strictObject({ rules: faultRulesSchema, fired: z.array(z.int().min(0)), random: z.tuple([u32, u32, u32, u32]) }),
  state: worldStateSchema,
})

/**
 * A bundle's `start`, checked (`bundleStartSchema`), as the lifecycle restores
 * it; a start that is not one is a one-line `ConfigError` (`where` names the
 * bundle) listing where it is wrong, as `PUT /__mock/state` lists it.
 *
 * @example
 * await lifecycle.restore(bundleStart(bundle.start, 'The bundle'))
 */
export function bundleStart(start: unknown, where = 'The bundle'): WorldSnapshot {
  const result = safeParse(bundleStartSchema, start)
  if (result.success) return result.data as WorldSnapshot
  const details = issuesToDetails(result.error.issues, 'start')
  const listed = details.slice(0, 3).map((detail) => `${detail.path}: ${oneLine(detail.message)}`)
  const more = details.length > 3 ? `; and ${details.length - 3} more` : ''
  throw new ConfigError(`${where} has a start that is no world this server takes (as PUT /__mock/state checks it): ${listed.join('; ')}${more}.`)
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}
