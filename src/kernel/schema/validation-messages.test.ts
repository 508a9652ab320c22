import * as z from 'zod'
import { describe, expect, it } from 'vitest'
import { isoInstant } from '../time/iso-instant.js'
import { issuesToDetails, safeParse } from '../http/validate.js'

const details = (schema: z.ZodType, input: unknown) => {
  const result = safeParse(schema, input)
  return result.success ? [] : issuesToDetails(result.error.issues)
}

describe('validation messages', () => {
  it.each([
    ['a missing field', z.object({ name: z.string() }), {}, [{ path: 'name', message: 'is required' }]],
    ['a wrong type', z.object({ name: z.string() }), { name: 3 }, [{ path: 'name', message: 'must be a string, not a number' }]],
    ['an integer', z.object({ n: z.int() }), { n: 1.5 }, [{ path: 'n', message: 'must be an integer, not a number' }]],
    ['a number too small', z.object({ n: z.number().min(2) }), { n: 1 }, [{ path: 'n', message: 'must be at least 2' }]],
    ['a number too big', z.object({ n: z.number().lt(2) }), { n: 2 }, [{ path: 'n', message: 'must be less than 2' }]],
    ['an empty string', z.object({ s: z.string().min(1) }), { s: '' }, [{ path: 's', message: 'must not be empty' }]],
    ['a long string', z.object({ s: z.string().max(3) }), { s: 'abcd' }, [{ path: 's', message: 'must be at most 3 characters' }]],
    ['a short array', z.object({ l: z.array(z.int()).min(1) }), { l: [] }, [{ path: 'l', message: 'must contain at least 1 item' }]],
    ['a value outside the enum', z.object({ e: z.enum(['a', 'b']) }), { e: 'c' }, [{ path: 'e', message: 'must be one of "a", "b"' }]],
    ['an unknown key', z.strictObject({}), { x: 1 }, [{ path: '', message: 'has an unknown field: "x"' }]],
    ['a pattern', z.object({ s: z.string().regex(/^a+$/) }), { s: 'b' }, [{ path: 's', message: 'must match the pattern /^a+$/' }]],
    ['a multiple', z.object({ n: z.number().multipleOf(5) }), { n: 7 }, [{ path: 'n', message: 'must be a multiple of 5' }]],
    ['an instant', z.object({ at: isoInstant }), { at: 'yesterday' }, [{ path: 'at', message: 'must be an ISO 8601 instant with a time zone, such as 2026-01-01T00:00:00Z' }]],
    [
      'a datetime without a message of its own',
      z.object({ at: z.iso.datetime() }),
      { at: 'x' },
      [{ path: 'at', message: 'must be an ISO 8601 date-time with a time zone, such as 2026-01-01T00:00:00Z' }],
    ],
  ])("words %s in the project's own sentence", (_, schema, input, expected) => {
    expect(details(schema, input)).toEqual(expected)
  })

  it('keeps a message a schema gives itself', () => {
    expect(details(z.object({ n: z.int('must be whole') }), { n: 'x' })).toEqual([{ path: 'n', message: 'must be whole' }])
  })

  it('reports the problems of the one union option whose type the input has', () => {
    const nameOrObject = z.object({ scenario: z.union([z.string().min(1), z.strictObject({ seed: z.int() })], 'must be a name or an object') })
    expect(details(nameOrObject, { scenario: { seed: 'x' } })).toEqual([{ path: 'scenario.seed', message: 'must be an integer, not a string' }])
    expect(details(nameOrObject, { scenario: 5 })).toEqual([{ path: 'scenario', message: 'must be a name or an object' }])
  })

  it('leaves the zod of the host application alone (no global error map)', () => {
    expect(z.object({ name: z.string() }).safeParse({}).error!.issues[0]!.message).toMatch(/^Invalid input/)
  })
})
