import { describe, expect, it } from 'vitest'
import { ApiError } from '../../kernel/errors/api-error.js'
import { LOAD_CAPACITY, Platform } from './platform.js'

const T0 = Date.parse('2026-01-01T00:00:00Z')
const settings = (changes: Partial<Parameters<Platform['replace']>[0]> = {}) => ({
  status: 'operational' as const,
  base_load_percentage: 0,
  retry_after_seconds: 120,
  ...changes,
})

describe('platform status and load (D18)', () => {
  it('derives load from operations in the last minute of the simulator clock', () => {
    const platform = new Platform()
    expect(platform.loadPercentage(T0)).toBe(0)
    platform.record(T0)
    expect(platform.loadPercentage(T0)).toBe(0.17) // 1/600, rounded to 2 decimals
    for (let i = 0; i < 5; i++) platform.record(T0 + 1000)
    expect(platform.loadPercentage(T0 + 1000)).toBe(1)
    expect(platform.loadPercentage(T0 + 59_999)).toBe(1)
    expect(platform.loadPercentage(T0 + 60_000)).toBe(0.83) // the first one left the window
    expect(platform.loadPercentage(T0 + 61_000)).toBe(0)
  })

  it('ignores operations after "now" when the clock was moved back', () => {
    const platform = new Platform()
    platform.record(T0 + 30_000)
    expect(platform.loadPercentage(T0)).toBe(0)
    expect(platform.loadPercentage(T0 + 30_000)).toBe(0.17)
  })

  it('adds the base load and caps at 100', () => {
    const platform = new Platform()
    platform.replace(settings({ base_load_percentage: 42.5 }))
    expect(platform.loadPercentage(T0)).toBe(42.5)
    for (let i = 0; i < LOAD_CAPACITY + 50; i++) platform.record(T0)
    expect(platform.loadPercentage(T0)).toBe(100)
    expect(platform.export().recent_operations).toHaveLength(LOAD_CAPACITY)
  })

  it('round-trips through export and replace', () => {
    const platform = new Platform()
    platform.replace(settings({ status: 'degraded' }))
    platform.record(T0)
    platform.record(T0 + 500)
    const copy = new Platform()
    const { platform: saved, recent_operations } = platform.export()
    copy.replace(saved, recent_operations)
    expect(copy.export()).toEqual(platform.export())
    expect(copy.export().recent_operations).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.500Z'])
    expect(copy.status).toBe('degraded')
  })

  it('answers 503 with Retry-After during maintenance only', () => {
    const platform = new Platform()
    expect(() => platform.assertAvailable()).not.toThrow()
    platform.replace(settings({ status: 'degraded' }))
    expect(() => platform.assertAvailable()).not.toThrow()
    platform.replace(settings({ status: 'maintenance', retry_after_seconds: 30 }))
    try {
      platform.assertAvailable()
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError)
      expect(error).toMatchObject({ status: 503, code: 'service_unavailable', headers: { 'retry-after': '30' }, extra: { retry_after: 30 } })
    }
  })
})
