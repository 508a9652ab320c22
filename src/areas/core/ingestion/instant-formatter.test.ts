import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InstantFormatter } from './instant-formatter.js'

describe('InstantFormatter', () => {
  it('writes what toISOString writes, on any day, in any order', () => {
    const formatter = new InstantFormatter()
    // Years -271821 to 275760: Date's whole range, extended years included.
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -8.64e15, max: 8.64e15 }), { maxLength: 50 }), (instants) => {
        for (const ms of instants) expect(formatter.format(ms)).toBe(new Date(ms).toISOString())
      }),
    )
    for (const ms of [0, -1, 1, Date.UTC(0, 0, 1) - 1, Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 1]) {
      expect(formatter.format(ms)).toBe(new Date(ms).toISOString())
    }
  })
})
