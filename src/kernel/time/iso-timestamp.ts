import * as z from 'zod'

/**
 * An ISO 8601 timestamp with a UTC offset, as every area writes them (spec
 * conventions): the zod schema bodies, scenarios and state documents use.
 *
 * @example
 * isoTimestamp.parse('2026-01-01T00:00:00.000Z')
 */
export const isoTimestamp = z.iso.datetime({ offset: true })
