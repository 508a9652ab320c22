import { ArrivalOrder } from './arrival-order.js'
import { InstantFormatter } from './instant-formatter.js'
import { PointRing } from './point-ring.js'

/** Running counts of ingested points (D15): `accepted` and `evicted` never go down, `stored = accepted − evicted`. */
export interface IngestionCounts {
  /** Points ever accepted (every point of every 200 batch). */
  accepted: number
  /** Accepted points the window has let go of, oldest first. */
  evicted: number
  /** Points held now. */
  stored: number
}

/** One sensor's running counts. */
export interface SensorCounts extends IngestionCounts {
  sensor_id: string
}

/** A point as kept: its timestamp in UTC to the millisecond, and its value. */
export interface StoredPoint {
  timestamp: string
  value: number
}

/** How many points are kept: per sensor and in all (D15 window). */
export interface WindowSizes {
  sensorWindow: number
  window: number
}

/** One sensor's part of the state document: its counts and kept points, oldest first. */
export interface SensorState {
  sensor_id: string
  accepted: number
  evicted: number
  points: StoredPoint[]
}

/**
 * What was ingested (`sim.readings`): running counts and the points still held,
 * read-only. Sensors are listed in the order they first sent a point.
 *
 * @example
 * sim.readings.counts()          // { accepted: 2000000, evicted: 1500000, stored: 500000 }
 * sim.readings.points('s-1')     // [{ timestamp: '2026-01-01T00:00:00.000Z', value: 21.5 }, ...]
 */
export interface Readings extends WindowSizes {
  /** Totals over every sensor. */
  counts(): IngestionCounts
  /** Every sensor that ever sent a point, with its counts. */
  sensors(): SensorCounts[]
  /** One sensor's counts; `undefined` if it never sent a point. */
  sensor(sensorId: string): SensorCounts | undefined
  /** A copy of one sensor's kept points, oldest first (`[]` for an unknown sensor). */
  points(sensorId: string): StoredPoint[]
}

/** A sensor's ring plus its counts; `stale` counts its arrival-order entries whose points its own window already dropped. */
interface Sensor {
  id: string
  slot: number
  ring: PointRing
  accepted: number
  evicted: number
  stale: number
}

/** Below this many stale arrival entries, compacting is not worth a pass. */
const COMPACT_FLOOR = 1024

/**
 * The ingested points Area B keeps (D15), in bounded memory: each sensor keeps
 * its last `sensorWindow` points, and the whole window its last `window`
 * points across sensors, in the order they were accepted; the oldest go first.
 * Counts are exact whatever was let go. 25–30 bytes a kept point (16 in a
 * sensor's `Float64Array`, 4 for its arrival entry, the rest room to grow)
 * instead of a record per batch with an object per point.
 *
 * @example
 * const window = new ReadingWindow({ sensorWindow: 2, window: 3 })
 * window.append('s-1', Date.parse('2026-01-01T00:00:00Z'), 1)
 */
export class ReadingWindow implements Readings {
  readonly sensorWindow: number
  readonly window: number
  readonly #sensors = new Map<string, Sensor>()
  /** Sensors by slot, the numbers the arrival order holds. */
  #slots: Sensor[] = []
  readonly #order = new ArrivalOrder()
  #accepted = 0
  #evicted = 0
  #stored = 0
  #stale = 0

  constructor(sizes: WindowSizes) {
    this.sensorWindow = sizes.sensorWindow
    this.window = sizes.window
  }

  /** Accepts one validated point: counted, kept, and the oldest let go if a window is full. */
  append(sensorId: string, time: number, value: number): void {
    const sensor = this.#sensor(sensorId)
    sensor.accepted++
    this.#accepted++
    this.#keep(sensor, time, value)
  }

  counts(): IngestionCounts {
    return { accepted: this.#accepted, evicted: this.#evicted, stored: this.#stored }
  }

  sensors(): SensorCounts[] {
    return [...this.#sensors.values()].map(countsOf)
  }

  sensor(sensorId: string): SensorCounts | undefined {
    const sensor = this.#sensors.get(sensorId)
    return sensor && countsOf(sensor)
  }

  points(sensorId: string): StoredPoint[] {
    return this.#points(sensorId, new InstantFormatter())
  }

  /** Every sensor with its counts and kept points: the `core.readings` of the state document. */
  export(): SensorState[] {
    const formatter = new InstantFormatter()
    return [...this.#sensors.values()].map((sensor) => ({
      sensor_id: sensor.id,
      accepted: sensor.accepted,
      evicted: sensor.evicted,
      points: this.#points(sensor.id, formatter),
    }))
  }

  /**
   * Empties the window, then takes sensors from a state document in order,
   * their points oldest first, as if accepted in that order (which decides what
   * goes first once the window is full). A sensor listed twice (one record per
   * batch, as states before the window had) adds up. `accepted` is at least the
   * points given; points over the window sizes count as evicted.
   */
  import(sensors: ReadonlyArray<{ sensor_id: string; accepted?: number | undefined; points: ReadonlyArray<{ timestamp: string; value: number }> }>): void {
    this.clear()
    for (const entry of sensors) {
      const sensor = this.#sensor(entry.sensor_id)
      const accepted = Math.max(entry.accepted ?? 0, entry.points.length)
      sensor.accepted += accepted
      this.#accepted += accepted
      for (const point of entry.points) this.#keep(sensor, Date.parse(point.timestamp), point.value)
    }
    // Whatever was given as accepted but not as a point was let go before the export.
    for (const sensor of this.#sensors.values()) sensor.evicted = sensor.accepted - sensor.ring.size
    this.#evicted = this.#accepted - this.#stored
  }

  clear(): void {
    this.#sensors.clear()
    this.#slots = []
    this.#order.clear()
    this.#accepted = 0
    this.#evicted = 0
    this.#stored = 0
    this.#stale = 0
  }

  #points(sensorId: string, formatter: InstantFormatter): StoredPoint[] {
    const points: StoredPoint[] = []
    this.#sensors.get(sensorId)?.ring.forEach((time, value) => points.push({ timestamp: formatter.format(time), value }))
    return points
  }

  #sensor(id: string): Sensor {
    let sensor = this.#sensors.get(id)
    if (!sensor) {
      sensor = { id, slot: this.#slots.length, ring: new PointRing(this.sensorWindow), accepted: 0, evicted: 0, stale: 0 }
      this.#sensors.set(id, sensor)
      this.#slots.push(sensor)
    }
    return sensor
  }

  #keep(sensor: Sensor, time: number, value: number): void {
    if (this.sensorWindow === 0 || this.window === 0) {
      this.#dropped(sensor)
      return
    }
    if (sensor.ring.size === this.sensorWindow) {
      // The sensor's own window: its oldest point goes; its arrival entry stays behind, stale.
      sensor.ring.shift()
      this.#dropped(sensor)
      this.#stored--
      sensor.stale++
      this.#stale++
    } else if (this.#stored === this.window) this.#evictOldest()
    sensor.ring.push(time, value)
    this.#stored++
    this.#order.push(sensor.slot)
    if (this.#stale > COMPACT_FLOOR && this.#stale > this.#stored) this.#compact()
  }

  /** The whole window is full: the oldest point of any sensor goes. */
  #evictOldest(): void {
    for (;;) {
      const sensor = this.#slots[this.#order.shift()]!
      // A sensor's stale entries are always its first ones in the arrival order.
      if (sensor.stale > 0) {
        sensor.stale--
        this.#stale--
        continue
      }
      sensor.ring.shift()
      this.#dropped(sensor)
      this.#stored--
      return
    }
  }

  #dropped(sensor: Sensor): void {
    sensor.evicted++
    this.#evicted++
  }

  /** Drops stale arrival entries, so the order holds at most about twice the points kept. */
  #compact(): void {
    this.#order.compact((slot) => {
      const sensor = this.#slots[slot]!
      if (sensor.stale === 0) return true
      sensor.stale--
      return false
    })
    this.#stale = 0
  }
}

function countsOf(sensor: Sensor): SensorCounts {
  return { sensor_id: sensor.id, accepted: sensor.accepted, evicted: sensor.evicted, stored: sensor.ring.size }
}
