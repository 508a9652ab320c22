import { ConfigError } from '../errors/config-error.js'
import { isoInstant } from './iso-instant.js'

/** The simulator's source of time (D4, D24): every timestamp comes from here. */
export interface Clock {
  now(): Date
  /** `true` when time stands still, so timestamps are reproducible. */
  readonly fixed: boolean
}

/**
 * A clock frozen at `instant` (an ISO 8601 string): reproducible timestamps (D24).
 *
 * @example
 * fixedClock('2026-01-01T00:00:00Z').now().toISOString() // '2026-01-01T00:00:00.000Z'
 */
export function fixedClock(instant: string): Clock {
  const ms = parseInstant(instant)
  return { fixed: true, now: () => new Date(ms) }
}

/** The real wall clock. */
export function systemClock(): Clock {
  return { fixed: false, now: () => new Date() }
}

/**
 * Milliseconds since the epoch of an ISO 8601 instant; anything else throws a
 * `ConfigError` naming the value.
 *
 * @example
 * parseInstant('2026-01-01T00:00:00Z') // 1767225600000
 */
export function parseInstant(instant: string): number {
  const ms = Date.parse(instant)
  if (!isoInstant.safeParse(instant).success || Number.isNaN(ms)) {
    throw new ConfigError(`Invalid clock "${instant}": expected an ISO 8601 instant with a time zone, within the years 0000 to 9999 in UTC, such as 2026-01-01T00:00:00Z.`)
  }
  return ms
}
