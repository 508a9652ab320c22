import * as z from 'zod'
import { integerText, option } from '../../../kernel/options/option-meta.js'

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

const POINTS = 'expected a number of points, an integer of 0 or more'
const points = () => z.int(POINTS).min(0, POINTS)

/**
 * Area B's options (from `createSimulator`, or the CLI's `--sensor-window`
 * and `--ingest-window`); a bad value is a `ConfigError` naming it, raised when
 * the simulator is created. 0 keeps no point (counts only).
 *
 * @example
 * createSimulator({ ingestion: { window: 100_000 } })
 */
export const coreOptions = {
  /**
   * Area B: how many ingested points are kept (D15), per sensor (`sensorWindow`,
   * default 10,000) and in all (`window`, default 500,000). The oldest go first;
   * the counts (`sim.readings.counts()`) stay exact. 0 keeps none.
   */
  ingestion: z
    .object(
      {
        sensorWindow: option(points().default(DEFAULT_SENSOR_WINDOW), {
          cli: {
            flag: '--sensor-window <points>',
            description: 'Area B: ingested points kept per sensor, the oldest dropped first; counts stay exact (0 keeps none)',
            fromText: integerText,
          },
        }),
        window: option(points().default(DEFAULT_INGEST_WINDOW), {
          cli: {
            flag: '--ingest-window <points>',
            description: 'Area B: ingested points kept in all, over every sensor, the oldest dropped first (0 keeps none)',
            fromText: integerText,
          },
        }),
      },
      'expected an object with sensorWindow and/or window',
    )
    .prefault({}),
}
