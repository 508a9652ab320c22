/** One segment: base64url characters only, no `=` padding (RFC 7515 §2). */
const SEGMENT = /^[A-Za-z0-9_-]*$/
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/**
 * Whether `token` is written exactly as a compact JWS is (RFC 7515 §7.1):
 * three segments joined by two dots, each the canonical unpadded base64url of
 * its bytes, nothing before or after. Decoders are lenient (padding, bits left
 * over in the last character), so without this check one token had many
 * spellings, all accepted: `<token>=`, or its last character changed in the
 * bits nobody reads. An empty segment is allowed (it is the encoding of
 * nothing); `alg: none` tokens then fail on their algorithm, not here.
 *
 * @example
 * isCompactJwt('eyJhbGciOiJIUzI1NiJ9.e30.XmNK3GpH3Ys_7wsYBfq4C3M6goz71I7dTgUkuIa5lyQ') // true
 * isCompactJwt('eyJhbGciOiJIUzI1NiJ9.e30.XmNK3GpH3Ys_7wsYBfq4C3M6goz71I7dTgUkuIa5lyQ=') // false
 */
export function isCompactJwt(token: string): boolean {
  const segments = token.split('.')
  return segments.length === 3 && segments.every(isCanonicalBase64url)
}

/**
 * A segment whose length a whole number of bytes can have (never 1 more than
 * a multiple of 4) and whose last character leaves the unused bits zero, as
 * an encoder writes it.
 */
function isCanonicalBase64url(segment: string): boolean {
  if (!SEGMENT.test(segment)) return false
  const rest = segment.length % 4
  if (rest === 0) return true
  if (rest === 1) return false
  const last = ALPHABET.indexOf(segment.at(-1)!)
  // 2 characters carry 1 byte (4 bits spare), 3 carry 2 bytes (2 bits spare).
  return (last & (rest === 2 ? 0b1111 : 0b11)) === 0
}
