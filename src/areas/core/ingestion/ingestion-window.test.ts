import { setupServer } from 'msw/node'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { call } from '../../../../test/support/http.js'
import { ConfigError } from '../../../kernel/errors/config-error.js'
import { createSimulator, DEFAULT_INGEST_WINDOW, DEFAULT_SENSOR_WINDOW } from '../../../index.js'

// The ingestion window (D15) as a user meets it: small windows through the
// `ingestion` option, points sent to the API, counts read from the state
// document. The CLI flags are covered in test/cli.test.ts.
const base = 'http://ingest-window.test'
const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z', baseUrls: { core: `${base}/core` }, ingestion: { sensorWindow: 3, window: 5 } })
const server = setupServer(...sim.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
beforeEach(() => sim.reset())
afterAll(() => server.close())

const point = (sensor: string, value: number, minute = 0) => ({ timestamp: `2026-01-01T00:${String(minute).padStart(2, '0')}:00Z`, value, sensor_id: sensor })
const ingest = (points: unknown[]) => call(`${base}/core/ingest/data`, { method: 'POST', json: points })
const state = async () => (await call(`${base}/__mock/state`)).body
const kept = async () =>
  Object.fromEntries(
    ((await state()).core.readings as Array<{ sensor_id: string; points: Array<{ value: number }> }>).map((reading) => [reading.sensor_id, reading.points.map((p) => p.value)]),
  )

describe('Area B ingestion window (D15)', () => {
  it('keeps each sensor’s newest points, oldest dropped first, and answers every batch in full', async () => {
    const reply = await ingest([point('a', 1, 0), point('a', 2, 1), point('b', 10, 0), point('a', 3, 2), point('a', 4, 3)])
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ status: 'success', records_processed: 5 })
    expect(await kept()).toEqual({ a: [2, 3, 4], b: [10] })
    expect((await state()).core.ingestion).toEqual({ accepted: 5, evicted: 1, stored: 4, sensors: 2, sensor_window: 3, window: 5 })
  })

  it('keeps at most the total window across sensors, the oldest accepted first', async () => {
    await ingest([point('a', 1), point('b', 2), point('c', 3)])
    await ingest([point('d', 4), point('e', 5), point('f', 6), point('g', 7)])
    expect(await kept()).toEqual({ a: [], b: [], c: [3], d: [4], e: [5], f: [6], g: [7] })
    const core = (await state()).core
    expect(core.ingestion).toMatchObject({ accepted: 7, evicted: 2, stored: 5, sensors: 7 })
    expect(core.readings.find((reading: { sensor_id: string }) => reading.sensor_id === 'a')).toEqual({ sensor_id: 'a', accepted: 1, evicted: 1, points: [] })
    // What is kept in-process is what the state document shows.
    expect(sim.readings.counts()).toEqual({ accepted: 7, evicted: 2, stored: 5 })
    expect(sim.readings.points('c')).toEqual([{ timestamp: '2026-01-01T00:00:00.000Z', value: 3 }])
    expect(sim.counts().readings).toBe(5)
  })

  it('counts every accepted point exactly, however many were let go, and nothing for a refused batch', async () => {
    for (let batch = 0; batch < 20; batch++) {
      await ingest(Array.from({ length: 500 }, (_, index) => point(`s-${index % 4}`, batch * 500 + index)))
    }
    expect((await ingest([point('s-0', 1), { timestamp: 'later', value: 2, sensor_id: 's-0' }])).status).toBe(400)
    expect((await ingest(Array.from({ length: 10_001 }, (_, index) => point('s-0', index)))).status).toBe(413)
    const core = (await state()).core
    expect(core.ingestion).toMatchObject({ accepted: 10_000, evicted: 9_995, stored: 5 })
    expect(core.readings.map((reading: { accepted: number; evicted: number }) => [reading.accepted, reading.evicted])).toEqual([
      [2_500, 2_499],
      [2_500, 2_499],
      [2_500, 2_499],
      [2_500, 2_498],
    ])
    // The last five arrivals, 9,995 to 9,999.
    expect(await kept()).toEqual({ 's-0': [9_996], 's-1': [9_997], 's-2': [9_998], 's-3': [9_995, 9_999] })
  })

  it('round-trips through GET and PUT /__mock/state, counts included, and goes on from there', async () => {
    await ingest([point('a', 1), point('a', 2), point('a', 3), point('a', 4), point('b', 5)])
    const before = await state()
    await sim.reset()
    expect((await state()).core.ingestion).toMatchObject({ accepted: 0, evicted: 0, stored: 0, sensors: 0 })
    const replaced = await call(`${base}/__mock/state`, { method: 'PUT', json: before })
    expect(replaced.status).toBe(200)
    expect(replaced.body.counts.readings).toBe(4)
    const after = await state()
    expect(after.core).toEqual(before.core)
    await ingest([point('c', 6), point('c', 7)])
    // The total window is full: the oldest kept point (a:2) goes first.
    expect(await kept()).toEqual({ a: [3, 4], b: [5], c: [6, 7] })
    expect((await state()).core.ingestion).toMatchObject({ accepted: 7, evicted: 2, stored: 5 })
  })

  it('accepts states of the earlier shape, one record per sensor and batch, adding each sensor up', async () => {
    const document = await state()
    document.core.readings = [
      { id: 'r1', batch_id: 'b1', sensor_id: 'a', received_at: '2026-01-01T00:00:00.000Z', points: [{ timestamp: '2026-01-01T00:00:00Z', value: 1 }] },
      { id: 'r2', batch_id: 'b2', sensor_id: 'a', received_at: '2026-01-01T00:01:00.000Z', points: [{ timestamp: '2026-01-01T00:01:00Z', value: 2 }] },
    ]
    delete document.core.ingestion
    expect((await call(`${base}/__mock/state`, { method: 'PUT', json: document })).status).toBe(200)
    expect((await state()).core.readings).toEqual([
      {
        sensor_id: 'a',
        accepted: 2,
        evicted: 0,
        points: [
          { timestamp: '2026-01-01T00:00:00.000Z', value: 1 },
          { timestamp: '2026-01-01T00:01:00.000Z', value: 2 },
        ],
      },
    ])
  })

  it('refuses a state whose counts cannot be, and changes nothing', async () => {
    await ingest([point('a', 1)])
    const document = await state()
    document.core.readings = [
      {
        sensor_id: 'a',
        accepted: 1,
        points: [
          { timestamp: '2026-01-01T00:00:00Z', value: 1 },
          { timestamp: 'soon', value: 2 },
        ],
      },
    ]
    const reply = await call(`${base}/__mock/state`, { method: 'PUT', json: document })
    expect(reply.status).toBe(400)
    expect(reply.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['core.readings.0.accepted', 'core.readings.0.points.1.timestamp'])
    expect((await state()).core.ingestion).toMatchObject({ accepted: 1, stored: 1 })
  })

  it('refuses a state whose accepted counts add up past 2^53 − 1, the documented most of core.ingestion.accepted, and changes nothing', async () => {
    await ingest([point('a', 1)])
    const document = await state()
    delete document.core.ingestion
    const big = Number.MAX_SAFE_INTEGER - 1
    for (const readings of [
      [
        { sensor_id: 'a', accepted: big, points: [] },
        { sensor_id: 'b', accepted: big, points: [] },
      ],
      // A sensor listed twice adds up (the earlier shape).
      [
        { sensor_id: 'a', accepted: big, points: [] },
        { sensor_id: 'a', accepted: 2, points: [] },
      ],
    ]) {
      const reply = await call(`${base}/__mock/state`, { method: 'PUT', json: { ...document, core: { ...document.core, readings } } })
      expect(reply.status).toBe(400)
      expect(reply.body).toMatchObject({
        error: 'validation_failed',
        details: [{ path: 'core.readings.1.accepted', message: 'makes the points ever accepted, over every sensor, more than 2^53 − 1 (9007199254740991)' }],
      })
      expect((await state()).core.ingestion).toMatchObject({ accepted: 1, stored: 1 })
    }
    // Exactly the most is fine.
    const most = [
      { sensor_id: 'a', accepted: big, points: [] },
      { sensor_id: 'b', accepted: 1, points: [] },
    ]
    expect((await call(`${base}/__mock/state`, { method: 'PUT', json: { ...document, core: { ...document.core, readings: most } } })).status).toBe(200)
    expect((await state()).core.ingestion).toMatchObject({ accepted: Number.MAX_SAFE_INTEGER, stored: 0 })
  })

  it('reset() and POST /__mock/reset forget points and counts; snapshot() and restore() keep both', async () => {
    await ingest([point('a', 1), point('a', 2), point('a', 3), point('a', 4)])
    const snapshot = sim.snapshot()
    await call(`${base}/__mock/reset`, { method: 'POST' })
    expect(sim.readings.counts()).toEqual({ accepted: 0, evicted: 0, stored: 0 })
    expect(sim.readings.sensors()).toEqual([])
    await sim.restore(snapshot)
    expect(sim.readings.sensor('a')).toEqual({ sensor_id: 'a', accepted: 4, evicted: 1, stored: 3 })
    await sim.reset()
    expect(sim.readings.sensor('a')).toBeUndefined()
  })
})

describe('the ingestion option', () => {
  it('defaults to 10,000 points per sensor and 500,000 in all', () => {
    const defaults = createSimulator({ areas: ['core'] })
    expect([defaults.readings.sensorWindow, defaults.readings.window]).toEqual([DEFAULT_SENSOR_WINDOW, DEFAULT_INGEST_WINDOW])
    expect([DEFAULT_SENSOR_WINDOW, DEFAULT_INGEST_WINDOW]).toEqual([10_000, 500_000])
  })

  it.each([
    [{ sensorWindow: -1 }, /Invalid ingestion\.sensorWindow "-1" \(--sensor-window\): expected a number of points, an integer of 0 or more\./],
    [{ sensorWindow: 1.5 }, /Invalid ingestion\.sensorWindow "1\.5"/],
    [{ window: Number.NaN }, /Invalid ingestion\.window "NaN" \(--ingest-window\)/],
    [{ window: '100' as unknown as number }, /Invalid ingestion\.window "100"/],
    [{ window: Number.POSITIVE_INFINITY }, /Invalid ingestion\.window "Infinity"/],
  ])('refuses %o with a ConfigError naming the option and the flag', (ingestion, message) => {
    expect(() => createSimulator({ ingestion })).toThrow(ConfigError)
    expect(() => createSimulator({ ingestion })).toThrow(message)
  })

  it('0 keeps no point but still counts them; isolated worlds get the same windows', async () => {
    const counting = createSimulator({ areas: ['core'], scenario: 'empty', ingestion: { window: 0 } })
    const reply = await counting.fetch(
      new Request('http://x/core/ingest/data', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([point('a', 1), point('b', 2)]) }),
    )!
    expect(reply.status).toBe(200)
    expect(counting.readings.counts()).toEqual({ accepted: 2, evicted: 2, stored: 0 })
    const world = await counting.worlds.create({})
    expect([world.readings.sensorWindow, world.readings.window]).toEqual([DEFAULT_SENSOR_WINDOW, 0])
  })

  it('without Area B, sim.readings is an empty window and counts() has no readings', () => {
    const adminOnly = createSimulator({ areas: ['admin'] })
    expect(adminOnly.readings.counts()).toEqual({ accepted: 0, evicted: 0, stored: 0 })
    expect(adminOnly.counts()).not.toHaveProperty('readings')
  })
})
