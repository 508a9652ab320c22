const BASE64 = new TextEncoder().encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')
const PAD = 61
const latin1 = new TextDecoder('latin1')

/**
 * Length of the padded base64 of `bytes` bytes.
 *
 * @example
 * base64Length(16) // 24
 */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4
}

/**
 * Writes standard padded base64 of `bytes` into `out` at `at`; returns the index after it.
 *
 * @example
 * const end = base64Into(salt, text, prefix.length)
 */
export function base64Into(bytes: Uint8Array, out: Uint8Array, at: number): number {
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    out[at++] = BASE64[n >>> 18]!
    out[at++] = BASE64[(n >>> 12) & 63]!
    out[at++] = BASE64[(n >>> 6) & 63]!
    out[at++] = BASE64[n & 63]!
  }
  const rest = bytes.length - i
  if (rest > 0) {
    const n = (bytes[i]! << 16) | (rest === 2 ? bytes[i + 1]! << 8 : 0)
    out[at++] = BASE64[n >>> 18]!
    out[at++] = BASE64[(n >>> 12) & 63]!
    out[at++] = rest === 2 ? BASE64[(n >>> 6) & 63]! : PAD
    out[at++] = PAD
  }
  return at
}

/**
 * Standard padded base64 of `bytes`.
 *
 * @example
 * toBase64(new Uint8Array([1, 2, 3])) // 'AQID'
 */
export function toBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(base64Length(bytes.length))
  base64Into(bytes, out, 0)
  return latin1.decode(out)
}

/**
 * The bytes of standard base64 text.
 *
 * @example
 * fromBase64('AQID') // Uint8Array [1, 2, 3]
 */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text)
  const out = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
  return out
}
