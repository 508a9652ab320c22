import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { jsonPieces } from '../../kernel/http/json/json-stream.js'

/**
 * The hex SHA-256 of `JSON.stringify(value)` and its length in bytes, worked
 * out piece by piece (`jsonPieces`, arrays taken apart `depth` levels down):
 * a 100,000-user world is never held as one 25 MB text to be hashed. The same
 * digest as SHA-256 over `JSON.stringify(value)`: what taking a bundle and
 * replaying one both compare.
 *
 * @example
 * const { sha256, bytes } = digestOfJson(sim.exportState(), 3)
 */
export function digestOfJson(value: unknown, depth: number): { sha256: string; bytes: number } {
  const hash = sha256.create()
  const encoder = new TextEncoder()
  let bytes = 0
  for (const piece of jsonPieces(value, depth)) {
    const encoded = encoder.encode(piece)
    bytes += encoded.length
    hash.update(encoded)
  }
  return { sha256: bytesToHex(hash.digest()), bytes }
}
