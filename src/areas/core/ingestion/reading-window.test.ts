import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ReadingWindow } from './reading-window.js'

const T0 = Date.parse('2026-01-01T00:00:00Z')
const at = (minute: number) => new Date(T0 + minute * 60_000).toISOString()
/** Appends `values` to one sensor, one minute apart from `from`. */
function feed(window: ReadingWindow, sensor: string, values: number[], from = 0): void {
  values.forEach((value, index) => window.append(sensor, T0 + (from + index) * 60_000, value))
}
const values = (window: ReadingWindow, sensor: string) => window.points(sensor).map((point) => point.value)

describe('ReadingWindow (D15 ingestion window)', () => {
  it('keeps every point while under both windows, oldest first, timestamps in UTC to the millisecond', () => {
    const window = new ReadingWindow({ sensorWindow: 10, window: 100 })
    feed(window, 's-1', [1, 2, 3])
    window.append('s-2', Date.parse('2026-01-01T02:00:00.123+02:00'), -4.5)
    expect(window.points('s-1')).toEqual([
      { timestamp: at(0), value: 1 },
      { timestamp: at(1), value: 2 },
      { timestamp: at(2), value: 3 },
    ])
    expect(window.points('s-2')).toEqual([{ timestamp: '2026-01-01T00:00:00.123Z', value: -4.5 }])
    expect(window.counts()).toEqual({ accepted: 4, evicted: 0, stored: 4 })
    expect(window.sensors()).toEqual([
      { sensor_id: 's-1', accepted: 3, evicted: 0, stored: 3 },
      { sensor_id: 's-2', accepted: 1, evicted: 0, stored: 1 },
    ])
    expect(window.points('unknown')).toEqual([])
    expect(window.sensor('unknown')).toBeUndefined()
  })

  it('a full sensor window drops that sensor’s oldest point and no other sensor’s', () => {
    const window = new ReadingWindow({ sensorWindow: 3, window: 100 })
    feed(window, 'a', [1, 2, 3])
    feed(window, 'b', [10, 20])
    feed(window, 'a', [4, 5], 3)
    expect(values(window, 'a')).toEqual([3, 4, 5])
    expect(values(window, 'b')).toEqual([10, 20])
    expect(window.sensor('a')).toEqual({ sensor_id: 'a', accepted: 5, evicted: 2, stored: 3 })
    expect(window.sensor('b')).toEqual({ sensor_id: 'b', accepted: 2, evicted: 0, stored: 2 })
    expect(window.counts()).toEqual({ accepted: 7, evicted: 2, stored: 5 })
  })

  it('a full total window drops the oldest accepted point of any sensor', () => {
    const window = new ReadingWindow({ sensorWindow: 100, window: 4 })
    window.append('a', T0, 1)
    window.append('b', T0, 2)
    window.append('a', T0 + 1, 3)
    window.append('c', T0, 4)
    window.append('b', T0 + 1, 5) // drops a:1
    window.append('c', T0 + 1, 6) // drops b:2
    expect(values(window, 'a')).toEqual([3])
    expect(values(window, 'b')).toEqual([5])
    expect(values(window, 'c')).toEqual([4, 6])
    expect(window.counts()).toEqual({ accepted: 6, evicted: 2, stored: 4 })
    expect(window.sensors().map(({ sensor_id, evicted }) => [sensor_id, evicted])).toEqual([
      ['a', 1],
      ['b', 1],
      ['c', 0],
    ])
  })

  it('goes by arrival, not by timestamp: a late point of an old instant is kept over earlier arrivals', () => {
    const window = new ReadingWindow({ sensorWindow: 100, window: 2 })
    window.append('a', T0 + 60_000, 1)
    window.append('b', T0 + 120_000, 2)
    window.append('c', T0, 3) // the oldest instant, but the newest arrival
    expect(window.export().map((sensor) => [sensor.sensor_id, sensor.points.length])).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 1],
    ])
  })

  it('both windows together: a sensor’s own drops never make the total window drop a second point', () => {
    const window = new ReadingWindow({ sensorWindow: 2, window: 3 })
    feed(window, 'a', [1, 2, 3, 4]) // a keeps 3, 4
    window.append('b', T0, 10) // total 3: a:3, a:4, b:10
    window.append('b', T0 + 1, 11) // total full: drops a:3 (oldest arrival kept)
    expect(values(window, 'a')).toEqual([4])
    expect(values(window, 'b')).toEqual([10, 11])
    expect(window.counts()).toEqual({ accepted: 6, evicted: 3, stored: 3 })
  })

  it('counts stay exact over millions of points while memory holds only the window', () => {
    const window = new ReadingWindow({ sensorWindow: 1_000, window: 5_000 })
    const sensors = 20
    for (let i = 0; i < 2_000_000; i++) window.append(`s-${i % sensors}`, T0 + i, i)
    expect(window.counts()).toEqual({ accepted: 2_000_000, evicted: 1_995_000, stored: 5_000 })
    for (const sensor of window.sensors()) expect(sensor).toMatchObject({ accepted: 100_000, evicted: 99_750, stored: 250 })
    // The newest 5,000 points, 250 per sensor.
    expect(values(window, 's-0').at(-1)).toBe(1_999_980)
    expect(values(window, 's-0')[0]).toBe(2_000_000 - 5_000)
  })

  it('keeps a sensor’s points right while its buffer grows to a window that is no power of two and shrinks back', () => {
    const window = new ReadingWindow({ sensorWindow: 1_000, window: 1_000 })
    for (let i = 0; i < 1_500; i++) window.append('a', T0 + i, i)
    expect(values(window, 'a')).toEqual(Array.from({ length: 1_000 }, (_, i) => 500 + i))
    // Another sensor takes over the total window one point at a time: "a" drains, oldest first.
    for (let i = 0; i < 980; i++) {
      window.append('b', T0 + i, -i)
      if (i % 37 === 0) expect(values(window, 'a')).toEqual(Array.from({ length: 999 - i }, (_, k) => 501 + i + k))
    }
    // 20 points left in a buffer shrunk from 1,000; then it grows again.
    expect(values(window, 'a')).toEqual(Array.from({ length: 20 }, (_, k) => 1_480 + k))
    // Its 20 are the oldest arrivals: they go first, then b's.
    for (let i = 1_500; i < 1_700; i++) window.append('a', T0 + i, i)
    expect(values(window, 'a')).toEqual(Array.from({ length: 200 }, (_, k) => 1_500 + k))
    expect(window.points('a')[199]).toEqual({ timestamp: new Date(T0 + 1_699).toISOString(), value: 1_699 })
    for (let i = 0; i < 1_000; i++) window.append('b', T0 + i, -i)
    expect(window.sensor('a')).toEqual({ sensor_id: 'a', accepted: 1_700, evicted: 1_700, stored: 0 })
    for (let i = 0; i < 700; i++) window.append('a', T0 + i, i)
    expect(values(window, 'a')).toEqual(Array.from({ length: 700 }, (_, i) => i))
  })

  it('window 0 or sensor window 0 keeps nothing but counts everything', () => {
    for (const sizes of [
      { sensorWindow: 0, window: 10 },
      { sensorWindow: 10, window: 0 },
    ]) {
      const window = new ReadingWindow(sizes)
      feed(window, 'a', [1, 2, 3])
      expect(window.counts()).toEqual({ accepted: 3, evicted: 3, stored: 0 })
      expect(window.sensor('a')).toEqual({ sensor_id: 'a', accepted: 3, evicted: 3, stored: 0 })
      expect(window.points('a')).toEqual([])
    }
  })

  it('exports counts and points, and imports them back to the same window', () => {
    const window = new ReadingWindow({ sensorWindow: 3, window: 5 })
    feed(window, 'a', [1, 2, 3, 4, 5])
    feed(window, 'b', [6, 7, 8])
    const exported = window.export()
    expect(exported).toEqual([
      {
        sensor_id: 'a',
        accepted: 5,
        evicted: 3,
        points: [
          { timestamp: at(3), value: 4 },
          { timestamp: at(4), value: 5 },
        ],
      },
      { sensor_id: 'b', accepted: 3, evicted: 0, points: [6, 7, 8].map((value, index) => ({ timestamp: at(index), value })) },
    ])
    const copy = new ReadingWindow({ sensorWindow: 3, window: 5 })
    copy.import(exported)
    expect(copy.export()).toEqual(exported)
    expect(copy.counts()).toEqual(window.counts())
    // And it goes on from there: a full total window drops a's oldest (imported first).
    copy.append('c', T0, 9)
    expect(values(copy, 'a')).toEqual([5])
    expect(copy.counts()).toEqual({ accepted: 9, evicted: 4, stored: 5 })
  })

  it('imports the earlier shape (one record per sensor and batch) by adding up each sensor', () => {
    const window = new ReadingWindow({ sensorWindow: 10, window: 10 })
    window.import([
      { sensor_id: 'a', points: [{ timestamp: at(0), value: 1 }] },
      { sensor_id: 'b', points: [{ timestamp: at(0), value: 2 }] },
      { sensor_id: 'a', points: [{ timestamp: at(1), value: 3 }] },
    ])
    expect(values(window, 'a')).toEqual([1, 3])
    expect(window.sensors()).toEqual([
      { sensor_id: 'a', accepted: 2, evicted: 0, stored: 2 },
      { sensor_id: 'b', accepted: 1, evicted: 0, stored: 1 },
    ])
  })

  it('an import larger than the window keeps the newest points and counts the rest as evicted', () => {
    const window = new ReadingWindow({ sensorWindow: 2, window: 10 })
    window.import([{ sensor_id: 'a', accepted: 10, points: [1, 2, 3].map((value, index) => ({ timestamp: at(index), value })) }])
    expect(values(window, 'a')).toEqual([2, 3])
    expect(window.counts()).toEqual({ accepted: 10, evicted: 8, stored: 2 })
  })

  it('clear() forgets points and counts', () => {
    const window = new ReadingWindow({ sensorWindow: 2, window: 3 })
    feed(window, 'a', [1, 2, 3])
    window.clear()
    expect(window.counts()).toEqual({ accepted: 0, evicted: 0, stored: 0 })
    expect(window.sensors()).toEqual([])
  })

  // Small windows reach the compaction of stale arrival entries; larger ones, buffers that grow and shrink (past 16 points).
  it.each([
    { sensors: 5, minWindow: 0, maxSensorWindow: 6, maxWindow: 12 },
    { sensors: 2, minWindow: 17, maxSensorWindow: 90, maxWindow: 120 },
  ])(
    'matches a plain list model for any sequence of points (property, $sensors sensors, windows up to $maxSensorWindow / $maxWindow)',
    ({ sensors, minWindow, maxSensorWindow, maxWindow }) => {
      // Runs of one sensor let a buffer fill up, then others drain it.
      const step = fc.record({ sensor: fc.integer({ min: 0, max: sensors }), value: fc.integer({ min: -1000, max: 1000 }), repeat: fc.integer({ min: 1, max: 60 }) })
      fc.assert(
        fc.property(
          fc.integer({ min: minWindow, max: maxSensorWindow }),
          fc.integer({ min: minWindow, max: maxWindow }),
          fc.array(step, { maxLength: 300 }).map((runs) => runs.flatMap((run) => Array.from({ length: run.repeat }, () => run))),
          (sensorWindow, total, steps) => {
            const window = new ReadingWindow({ sensorWindow, window: total })
            // The model: every kept point in arrival order; drops from the front of a sensor, or of everything.
            let kept: Array<{ sensor: string; value: number }> = []
            const accepted = new Map<string, number>()
            steps.forEach(({ sensor, value }, index) => {
              const id = `s-${sensor}`
              window.append(id, T0 + index, value)
              accepted.set(id, (accepted.get(id) ?? 0) + 1)
              kept.push({ sensor: id, value })
              const own = kept.filter((point) => point.sensor === id)
              if (own.length > sensorWindow) kept.splice(kept.indexOf(own[0]!), 1)
              if (kept.length > total) kept = kept.slice(kept.length - total)
            })
            for (const [id, count] of accepted) {
              const mine = kept.filter((point) => point.sensor === id).map((point) => point.value)
              expect(values(window, id)).toEqual(mine)
              expect(window.sensor(id)).toEqual({ sensor_id: id, accepted: count, evicted: count - mine.length, stored: mine.length })
            }
            expect(window.counts()).toEqual({ accepted: steps.length, evicted: steps.length - kept.length, stored: kept.length })
          },
        ),
        { numRuns: 200 },
      )
    },
  )

  it('keeps the arrival order across sensors after compacting stale entries', () => {
    // One busy sensor at its own window makes stale arrival entries; a quiet one keeps the total window from dropping them.
    const window = new ReadingWindow({ sensorWindow: 3, window: 6 })
    window.append('quiet', T0, -1)
    for (let i = 0; i < 5_000; i++) window.append('busy', T0 + i, i)
    window.append('late-1', T0, 100)
    window.append('late-2', T0, 101)
    window.append('late-3', T0, 102) // total window full: drops "quiet" (the oldest arrival), not a busy point
    expect(values(window, 'quiet')).toEqual([])
    expect(values(window, 'busy')).toEqual([4_997, 4_998, 4_999])
    window.append('late-4', T0, 103) // drops the oldest busy point still kept
    expect(values(window, 'busy')).toEqual([4_998, 4_999])
    expect(window.counts()).toEqual({ accepted: 5_005, evicted: 4_999, stored: 6 })
  })
})
