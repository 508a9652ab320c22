import { isLosslessNumber, parse } from 'lossless-json'

/** The largest value a `uint256` holds, the type of `amount` and `nonce` in the typed data (D23). */
export const MAX_UINT256 = 2n ** 256n - 1n
const TOO_LARGE = 'must be at most 2^256 − 1 (a uint256)'

/**
 * Parses a JSON request body keeping every number's source text (as a
 * lossless-json `LosslessNumber`), so `12345678901234567890` or `1e18` can be
 * told apart from what `JSON.parse` would silently round them to (D23).
 * Duplicate keys are a syntax error here, which `readJsonBody` turns into 400
 * `invalid_json`: with two `amount`s there is no telling which one was meant.
 *
 * @example
 * body: jsonBody(delegateBody, { parse: parseLosslessJson }) // a route's body, read with it
 */
export function parseLosslessJson(text: string): unknown {
  return parse(text)
}

/**
 * The decimal strings `readBigInteger` accepts, as one pattern: digits only
 * (leading zeros allowed unless `leadingZeros: false`) of a value from 1 (or 0
 * with `allowZero`) to `max`.
 * The OpenAPI document shows it, so a client learns the range from the
 * document; built from `max` digit by digit, and held against
 * `readBigInteger` by a test.
 *
 * @example
 * new RegExp(decimalPattern(255n, { allowZero: true })).test('0256') // false
 */
export function decimalPattern(max: bigint, options: { allowZero?: boolean; leadingZeros?: boolean } = {}): string {
  const digits = max.toString()
  // Numbers with as many digits as `max` and not above it: at each digit, a smaller one then anything, or the same one and on.
  const notAbove = (index: number): string => {
    const digit = Number(digits[index])
    const low = index === 0 ? 1 : 0
    const rest = digits.length - index - 1
    const range = (top: number) => (top === low ? `${low}` : `[${low}-${top}]`)
    if (rest === 0) return range(digit)
    const smaller = digit > low ? `${range(digit - 1)}\\d{${rest}}|` : ''
    return `(?:${smaller}${digit}${notAbove(index + 1)})`
  }
  const shorter = digits.length > 1 ? `[1-9]\\d{0,${digits.length - 2}}|` : ''
  const positive = `${shorter}${notAbove(0)}`
  const zeros = options.leadingZeros === false ? '' : '0*'
  return options.allowZero ? `^${zeros}(?:0|${positive})$` : `^${zeros}(?:${positive})$`
}

/** The JSON Schema of `amount` or `nonce`: a decimal string up to 2^256 − 1, or a JSON integer up to 2^53 − 1. */
export function bigIntegerJsonSchema(options: { allowZero?: boolean } = {}): Record<string, unknown> {
  return {
    anyOf: [
      // `minLength`: the pattern already needs a digit; said outright for tools that cannot run a pattern this long.
      { type: 'string', minLength: 1, pattern: decimalPattern(MAX_UINT256, options) },
      { type: 'integer', minimum: options.allowZero ? 0 : 1, maximum: Number.MAX_SAFE_INTEGER },
    ],
  }
}

/**
 * Reads a positive (or, with `allowZero`, non-negative) integer up to
 * 2^256 − 1 from a decimal string or a JSON integer, as D23 asks for `amount`:
 * a JSON number must be plain digits within 2^53 − 1, because a client that
 * sends a bigger one has already lost precision. Returns the value or the
 * reason it is refused, phrased to follow the field name.
 *
 * @example
 * readBigInteger('1000000000000000000') // { value: 1000000000000000000n }
 * readBigInteger(parse('1e18'))        // { problem: 'must not use an exponent …' }
 */
export function readBigInteger(input: unknown, options: { allowZero?: boolean } = {}): { value: bigint } | { problem: string } {
  const positive = options.allowZero ? 'a non-negative integer' : 'a positive integer'
  let value: bigint
  if (typeof input === 'string') {
    if (!/^\d+$/.test(input)) return { problem: `must be ${positive} written as a decimal string of digits (no sign, spaces, decimals or exponent)` }
    // 2^256 − 1 has 78 digits; a longer text is never parsed (BigInt of a huge text is slow).
    const digits = input.replace(/^0+(?=\d)/, '')
    if (digits.length > 78) return { problem: TOO_LARGE }
    value = BigInt(digits)
  } else if (isLosslessNumber(input)) {
    const text = input.value
    if (/[eE]/.test(text)) return { problem: `must not use an exponent (${text}); send large amounts as a decimal string` }
    if (text.includes('.')) return { problem: `must be a whole number, not ${text}` }
    if (text.startsWith('-')) return { problem: `must be ${positive}, not ${text}` }
    // 2^53 − 1 has 16 digits (JSON forbids leading zeros).
    if (text.length > 16 || BigInt(text) > BigInt(Number.MAX_SAFE_INTEGER)) {
      return {
        problem: `is above 2^53 − 1 as a JSON number, so precision may already be lost; send it as a decimal string (${text.length > 40 ? `${text.slice(0, 40)}…` : `"${text}"`})`,
      }
    }
    value = BigInt(text)
  } else {
    return { problem: input === undefined ? 'is required' : `must be ${positive}, as a decimal string or a JSON integer` }
  }
  if (value === 0n && !options.allowZero) return { problem: 'must be a positive integer, not 0' }
  if (value > MAX_UINT256) return { problem: TOO_LARGE }
  return { value }
}
