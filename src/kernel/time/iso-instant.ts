import * as z from 'zod'

/** The first and last instant a four-digit year can name in UTC: 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z. */
export const EARLIEST_INSTANT_MS = -62_167_219_200_000
export const LATEST_INSTANT_MS = 253_402_300_799_999

/**
 * `true` when `ms` is an instant every timestamp the simulator writes can show
 * (a four-digit year in UTC); later ones print as `+010000-…` or not at all.
 *
 * @example
 * withinClockRange(Date.parse('2026-01-01T00:00:00Z')) // true
 */
export function withinClockRange(ms: number): boolean {
  return Number.isFinite(ms) && ms >= EARLIEST_INSTANT_MS && ms <= LATEST_INSTANT_MS
}

/** What an instant must be, as messages and the document say it. */
const INSTANT = 'must be an ISO 8601 instant with a time zone, such as 2026-01-01T00:00:00Z'
const IN_RANGE = 'must fall within the years 0000 to 9999 in UTC'

/**
 * An instant as every API and option of the simulator takes it: ISO 8601 with
 * seconds and a zone, `2026-01-01T00:00:00Z` or `2026-01-01T01:00:00.5+01:00`,
 * years 0000–9999 once in UTC (`0000-01-01T00:00:00+01:00` is in the year −1,
 * which no timestamp the simulator writes could show). One schema for requests,
 * state, scenarios and `parseInstant`: the document's `format: date-time` and
 * pattern, and the range in its description. No zone-less local time that would
 * depend on the machine's time zone.
 *
 * @example
 * isoInstant.safeParse('2026-01-01T00:00:00Z').success // true
 */
export const isoInstant = z.iso
  .datetime({ offset: true, error: INSTANT })
  // A text that is no instant (`NaN`) has no year to check: the format's message says what is wrong.
  .refine((text) => withinClockRange(Date.parse(text)) || Number.isNaN(Date.parse(text)), IN_RANGE)
  .describe('An ISO 8601 instant with seconds and a time zone (2026-01-01T00:00:00Z), within the years 0000 to 9999 in UTC.')
  .meta({ id: 'Instant' })
