import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { parseQuery } from './query.js'

describe('parseQuery', () => {
  it('takes the first value of each key', () => {
    expect(parseQuery(z.object({ a: z.string() }), new URL('http://x/?a=1&a=2'))).toEqual({ a: '1' })
  })

  it('reads names that plain objects inherit (constructor, __proto__) as parameters like any other', () => {
    const schema = z.object({ constructor: z.string().optional(), toString: z.string().optional(), a: z.string() })
    expect(parseQuery(schema, new URL('http://x/?constructor=1&toString=t&a=2&__proto__=3'))).toEqual({ constructor: '1', toString: 't', a: '2' })
  })
})
