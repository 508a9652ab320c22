import * as z from 'zod'

/**
 * An instant as every API and option of the simulator takes it: ISO 8601 with
 * seconds and a zone, `2026-01-01T00:00:00Z` or `2026-01-01T01:00:00.5+01:00`,
 * years 0000–9999. One schema for requests, state, scenarios and `parseInstant`,
 * so the document's `format: date-time` and pattern are the whole rule: no
 * zone-less local time that would depend on the machine's time zone.
 *
 * @example
 * isoInstant.safeParse('2026-01-01T00:00:00Z').success // true
 */
export const isoInstant = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 instant with a time zone, such as 2026-01-01T00:00:00Z' })
