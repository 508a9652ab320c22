import { ConfigError } from '../../kernel/errors/config-error.js'
import type { AreaOptions } from '../area.js'
import type { WindowSizes } from './reading-window.js'

/**
 * Points kept per sensor by default: one full batch (D15's 10,000) of a single
 * sensor stays whole; at one point a second, the last 2¾ hours.
 */
export const DEFAULT_SENSOR_WINDOW = 10_000

/**
 * Points kept in all by default: 12–15 MB of typed arrays (measured, 50 to
 * 1,000 sensors) whatever the traffic, and a state document of about 30 MB,
 * well under the 64 MiB `PUT /__mock/state` accepts, so a full window
 * round-trips over HTTP.
 */
export const DEFAULT_INGEST_WINDOW = 500_000

/**
 * Checks the `ingestion` option (from `createSimulator`, or the CLI's
 * `--sensor-window` and `--ingest-window`); a bad value is a `ConfigError`
 * naming it, raised when the simulator is created. 0 keeps no point (counts only).
 *
 * @example
 * ingestionSettings({ ingestion: { window: 100_000 } }) // { sensorWindow: 10000, window: 100000 }
 */
export function ingestionSettings(options: AreaOptions): WindowSizes {
  return {
    sensorWindow: size(options.ingestion?.sensorWindow, 'ingestion.sensorWindow', '--sensor-window') ?? DEFAULT_SENSOR_WINDOW,
    window: size(options.ingestion?.window, 'ingestion.window', '--ingest-window') ?? DEFAULT_INGEST_WINDOW,
  }
}

function size(value: unknown, option: string, flag: string): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ConfigError(`Invalid ${option} "${String(value)}" (${flag}): expected a number of points, an integer of 0 or more.`)
  }
  return value
}
