import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'

/**
 * keccak256 of bytes or of a string's UTF-8 bytes, as `0x` + 64 lowercase hex
 * (the hash Ethereum uses for addresses, messages and ids).
 *
 * @example
 * keccakHex('') // '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'
 */
export function keccakHex(input: Uint8Array | string): `0x${string}` {
  return `0x${bytesToHex(keccak_256(typeof input === 'string' ? utf8ToBytes(input) : input))}`
}
