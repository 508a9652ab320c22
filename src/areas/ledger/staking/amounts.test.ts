import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bigIntegerJsonSchema, decimalPattern, MAX_UINT256, parseLosslessJson, readBigInteger } from './amounts.js'

/** `amount` as it arrives in a body whose text is `{"amount": <raw>}`. */
const amountOf = (raw: string) => (parseLosslessJson(`{"amount": ${raw}}`) as { amount: unknown }).amount

describe('readBigInteger: amounts from the raw JSON text (D23)', () => {
  it('accepts a decimal string of any size up to 2^256 − 1', () => {
    expect(readBigInteger('12345678901234567890')).toEqual({ value: 12345678901234567890n })
    expect(readBigInteger(MAX_UINT256.toString())).toEqual({ value: MAX_UINT256 })
    expect(readBigInteger('007')).toEqual({ value: 7n })
  })

  it('accepts a JSON integer within 2^53 − 1', () => {
    expect(readBigInteger(amountOf('1'))).toEqual({ value: 1n })
    expect(readBigInteger(amountOf('9007199254740991'))).toEqual({ value: 9007199254740991n })
  })

  it('refuses a JSON number above 2^53 − 1, even one JSON.parse would keep exact', () => {
    expect(readBigInteger(amountOf('12345678901234567890'))).toMatchObject({ problem: expect.stringContaining('2^53') })
    expect(readBigInteger(amountOf('9007199254740992'))).toMatchObject({ problem: expect.stringContaining('decimal string') })
  })

  it('refuses exponents, fractions, zero and negatives as JSON numbers', () => {
    for (const raw of ['1e18', '1E3', '1.5', '1.0', '0', '-1', '-0']) {
      expect(readBigInteger(amountOf(raw)), raw).toHaveProperty('problem')
    }
  })

  it('refuses numbers of any length past the limits, and looks past leading zeros', () => {
    expect(readBigInteger('9'.repeat(500_000))).toEqual({ problem: expect.stringContaining('2^256') })
    expect(readBigInteger(amountOf('9'.repeat(500_000)))).toEqual({ problem: expect.stringContaining('2^53') })
    expect(readBigInteger(`${'0'.repeat(500_000)}7`)).toEqual({ value: 7n })
  })

  it('refuses strings that are not plain digits, zero, and values past 2^256 − 1', () => {
    for (const text of ['', ' 1', '1 ', '+1', '-1', '1.5', '1e18', '0x10', '0', '000', (MAX_UINT256 + 1n).toString()]) {
      expect(readBigInteger(text), JSON.stringify(text)).toHaveProperty('problem')
    }
  })

  it('refuses other types and says when the value is missing', () => {
    expect(readBigInteger(undefined)).toEqual({ problem: 'is required' })
    for (const value of [null, true, [], {}]) expect(readBigInteger(value)).toHaveProperty('problem')
  })

  it('allows zero when asked (nonce)', () => {
    expect(readBigInteger(amountOf('0'), { allowZero: true })).toEqual({ value: 0n })
    expect(readBigInteger('0', { allowZero: true })).toEqual({ value: 0n })
    expect(readBigInteger(amountOf('-1'), { allowZero: true })).toHaveProperty('problem')
  })
})

describe('parseLosslessJson', () => {
  it('refuses duplicate keys: there is no telling which amount was meant', () => {
    expect(() => parseLosslessJson('{"amount": "1", "amount": "2"}')).toThrow(SyntaxError)
  })

  it('refuses malformed JSON with a SyntaxError', () => {
    for (const text of ['{"a":', '{"a": 01}', '{"a": 1} x']) expect(() => parseLosslessJson(text), text).toThrow(SyntaxError)
  })
})

describe('decimalPattern: the document says the range readBigInteger keeps to', () => {
  const digits = fc.oneof(
    fc.bigInt({ min: 0n, max: MAX_UINT256 + 10n ** 10n }).map(String),
    fc.constantFrom('0', '00', '007', MAX_UINT256.toString(), (MAX_UINT256 + 1n).toString(), `0${MAX_UINT256}`, '9'.repeat(78), '1'.repeat(79), ''),
    fc.stringMatching(/^0{0,3}[0-9]{1,80}$/),
    fc.string({ maxLength: 6 }),
  )

  it.each([false, true])('accepts exactly the decimal strings readBigInteger accepts (allowZero: %s)', (allowZero) => {
    const pattern = new RegExp(decimalPattern(MAX_UINT256, { allowZero }))
    fc.assert(
      fc.property(digits, (text) => pattern.test(text) === 'value' in readBigInteger(text, { allowZero })),
      { seed: 21, numRuns: 2000 },
    )
  })

  it('without leading zeros, refuses them and keeps the bound', () => {
    const pattern = new RegExp(decimalPattern(255n, { allowZero: true, leadingZeros: false }))
    expect(['0', '9', '10', '199', '249', '255'].filter((text) => !pattern.test(text))).toEqual([])
    expect(['00', '07', '256', '260', '300', '1000', '-1', ''].filter((text) => pattern.test(text))).toEqual([])
  })
})

describe('bigIntegerJsonSchema: what the document says of `amount` and `nonce`', () => {
  it.each([false, true])('states that the text is never empty, beside the pattern (allowZero: %s)', (allowZero) => {
    const [text, number] = bigIntegerJsonSchema({ allowZero }).anyOf as Array<Record<string, unknown>>
    expect(text).toMatchObject({ type: 'string', minLength: 1 })
    expect(new RegExp(text!.pattern as string).test('')).toBe(false)
    expect(readBigInteger('', { allowZero })).toHaveProperty('problem')
    expect(number).toEqual({ type: 'integer', minimum: allowZero ? 0 : 1, maximum: Number.MAX_SAFE_INTEGER })
  })
})
