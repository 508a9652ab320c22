import { describe, expect, it } from 'vitest'
import { isoString } from './iso-string.js'
import { SeededRandom } from '../random/random.js'

describe('isoString', () => {
  const expectSame = (ms: number) => expect(isoString(ms)).toBe(new Date(ms).toISOString())

  it('spells what toISOString spells across the years 0000–9999', () => {
    const random = new SeededRandom(11)
    const first = Date.parse('0000-01-01T00:00:00.000Z')
    const last = Date.parse('9999-12-31T23:59:59.999Z')
    for (let i = 0; i < 200_000; i++) expectSame(first + Math.floor(random.next() * (last - first + 1)))
  })

  it('gets the edges right: the range ends, the epoch, leap days and century years', () => {
    for (const instant of [
      '0000-01-01T00:00:00.000Z',
      '0000-02-29T12:00:00.000Z',
      '0000-12-31T23:59:59.999Z',
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '1900-02-28T23:59:59.999Z',
      '1900-03-01T00:00:00.000Z',
      '2000-02-29T00:00:00.000Z',
      '2024-02-29T23:59:59.999Z',
      '2100-03-01T00:00:00.001Z',
      '9999-12-31T23:59:59.999Z',
    ]) {
      const ms = Date.parse(instant)
      expect(isoString(ms)).toBe(instant)
      expectSame(ms - 1)
      expectSame(ms + 1)
    }
  })

  it('leaves instants outside four-digit years, and invalid ones, to Date', () => {
    expect(isoString(Date.parse('+010000-01-01T00:00:00.000Z'))).toBe('+010000-01-01T00:00:00.000Z')
    expect(isoString(Date.parse('-000001-12-31T23:59:59.999Z'))).toBe('-000001-12-31T23:59:59.999Z')
    expect(() => isoString(Number.NaN)).toThrow(RangeError)
  })
})
