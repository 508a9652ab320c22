import { describe, expect, it } from 'vitest'
import { ConfigError } from '../errors/config-error.js'
import { fixedClock } from './clock.js'
import { parseDuration, SimClock, toSimClock } from './sim-clock.js'

describe('parseDuration', () => {
  it('reads milliseconds and unit suffixes', () => {
    expect(parseDuration(250)).toBe(250)
    expect(parseDuration('250ms')).toBe(250)
    expect(parseDuration('90s')).toBe(90_000)
    expect(parseDuration('1.5h')).toBe(5_400_000)
    expect(parseDuration('-30m')).toBe(-1_800_000)
    expect(parseDuration('2d')).toBe(172_800_000)
  })

  it('refuses anything else, naming the value', () => {
    expect(() => parseDuration('soon')).toThrow(/Invalid duration "soon"/)
    expect(() => parseDuration('5 weeks')).toThrow(ConfigError)
    expect(() => parseDuration(Number.NaN)).toThrow(ConfigError)
  })
})

describe('SimClock', () => {
  const T0 = Date.parse('2026-01-01T00:00:00Z')

  it('stands still when frozen and moves only when told', () => {
    const clock = toSimClock('2026-01-01T00:00:00Z')
    expect(clock.fixed).toBe(true)
    expect(clock.now().getTime()).toBe(T0)
    expect(clock.advance('90s').toISOString()).toBe('2026-01-01T00:01:30.000Z')
    expect(clock.set('2027-06-01T12:00:00Z').toISOString()).toBe('2027-06-01T12:00:00.000Z')
    expect(clock.now().toISOString()).toBe('2027-06-01T12:00:00.000Z')
  })

  it('keeps an offset on a running clock, and freezes and resumes where it stands', () => {
    let source = T0
    const clock = new SimClock({ source: () => source })
    expect(clock.fixed).toBe(false)
    clock.advance('1h')
    source += 1000
    expect(clock.now().getTime()).toBe(T0 + 3_600_000 + 1000)
    clock.freeze()
    source += 5000
    expect(clock.now().getTime()).toBe(T0 + 3_601_000)
    clock.resume()
    source += 2000
    expect(clock.now().getTime()).toBe(T0 + 3_603_000)
    clock.set('2026-01-01T00:00:00Z')
    expect(clock.now().getTime()).toBe(T0)
  })

  it('saves and restores its setting', () => {
    const clock = toSimClock('2026-01-01T00:00:00Z')
    const saved = clock.save()
    clock.advance('2d')
    clock.restore(saved)
    expect(clock.now().getTime()).toBe(T0)
  })

  it('wraps a Clock of your own, frozen or running', () => {
    expect(toSimClock(fixedClock('2026-01-01T00:00:00Z')).fixed).toBe(true)
    const own = toSimClock({ fixed: false, now: () => new Date(T0) })
    expect(own.advance('1s').getTime()).toBe(T0 + 1000)
    expect(() => toSimClock('yesterday')).toThrow(ConfigError)
  })
})
