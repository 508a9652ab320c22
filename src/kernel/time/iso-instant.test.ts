import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { parseInstant } from './clock.js'
import { EARLIEST_INSTANT_MS, isoInstant, LATEST_INSTANT_MS, withinClockRange } from './iso-instant.js'

const messages = (value: unknown) => isoInstant.safeParse(value).error?.issues.map((issue) => issue.message) ?? []

describe('isoInstant: years 0000 to 9999, in UTC', () => {
  it('spans exactly the instants a four-digit year names', () => {
    expect(new Date(EARLIEST_INSTANT_MS).toISOString()).toBe('0000-01-01T00:00:00.000Z')
    expect(new Date(LATEST_INSTANT_MS).toISOString()).toBe('9999-12-31T23:59:59.999Z')
    expect([
      withinClockRange(EARLIEST_INSTANT_MS - 1),
      withinClockRange(EARLIEST_INSTANT_MS),
      withinClockRange(LATEST_INSTANT_MS),
      withinClockRange(LATEST_INSTANT_MS + 1),
    ]).toEqual([false, true, true, false])
  })

  it('accepts the ends of the range in any zone that keeps them inside', () => {
    for (const text of ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00-01:00', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59+01:00', '2026-01-01T01:00:00.5+01:00']) {
      expect(messages(text), text).toEqual([])
    }
  })

  it('refuses an instant a zone takes out of the range, saying so (it used to move the clock to the year −1)', () => {
    for (const text of ['0000-01-01T00:00:00+01:00', '9999-12-31T23:59:59-00:01']) expect(messages(text), text).toEqual(['must fall within the years 0000 to 9999 in UTC'])
    expect(() => parseInstant('0000-01-01T00:00:00+01:00')).toThrow(/within the years 0000 to 9999 in UTC/)
  })

  it('says only what is wrong with a text that is no instant', () => {
    for (const value of ['yesterday', '2026-01-01T00:00:00', 5]) expect(messages(value)).toEqual(['must be an ISO 8601 instant with a time zone, such as 2026-01-01T00:00:00Z'])
  })

  it('says the range in the document, where JSON Schema has no way to', () => {
    // A named schema (`Instant`) comes out as a reference to its definition.
    const json = z.toJSONSchema(isoInstant) as { $defs?: Record<string, unknown> }
    const schema = (json.$defs?.Instant ?? json) as { format: string; description: string }
    expect(schema.format).toBe('date-time')
    expect(schema.description).toContain('within the years 0000 to 9999 in UTC')
  })
})
