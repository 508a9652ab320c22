import { isoInstant } from './iso-instant.js'

/**
 * An ISO 8601 timestamp with a zone, as every area writes them (spec
 * conventions; the simulator writes UTC): the zod schema bodies, scenarios and
 * state documents use. The same rule as `isoInstant`, which requests take.
 *
 * @example
 * isoTimestamp.parse('2026-01-01T00:00:00.000Z')
 */
export const isoTimestamp = isoInstant
