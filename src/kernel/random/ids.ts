import type { SeededRandom } from './random.js'

/** Where the id generator stands: part of the world's snapshot so ids replay (D24). */
export interface IdState {
  /** First sequence number, drawn from the seed, so worlds of different seeds look different. */
  base: number
  /** Ids handed out since the world was seeded. */
  counter: number
}

/** A fresh id state for a world just seeded from `random`. */
export function initialIdState(random: SeededRandom): IdState {
  // 40 random bits: leaves 2^47 ids of room in the 48-bit field.
  return { base: random.nextUint32() * 256, counter: 0 }
}

/**
 * Deterministic, creation-ordered ids: RFC 9562 UUIDv8 (the custom layout)
 * whose first 48 bits are a sequence number and whose other 74 bits come from
 * the world's seeded random source. They depend on the seed and the order of
 * creation only, never on the clock, so the same seed, scenario and requests
 * give the same ids with the real clock too (D24), and ids sort in creation
 * order, which breaks `created_at` ties (D12) when a fixed clock gives many
 * records the same instant.
 *
 * @example
 * const id = nextId(random, state) // '5d2c81a4-93e0-8a1f-9c2e-…', then '5d2c81a4-93e1-8…'
 */
export function nextId(random: SeededRandom, state: IdState): string {
  const sequence = state.base + state.counter++
  const bytes = random.bytes(16)
  // 48-bit big-endian sequence; Math.floor keeps it exact past 2^32.
  const high = Math.floor(sequence / 2 ** 32)
  const low = sequence >>> 0
  bytes[0] = (high >>> 8) & 0xff
  bytes[1] = high & 0xff
  bytes[2] = (low >>> 24) & 0xff
  bytes[3] = (low >>> 16) & 0xff
  bytes[4] = (low >>> 8) & 0xff
  bytes[5] = low & 0xff
  bytes[6] = 0x80 | (bytes[6]! & 0x0f) // version 8
  bytes[8] = 0x80 | (bytes[8]! & 0x3f) // RFC 9562 variant
  return formatUuid(bytes)
}

const HEX = new TextEncoder().encode('0123456789abcdef')
const DASH = 45
const latin1 = new TextDecoder('latin1')

/**
 * The canonical lower-case text of 16 bytes (`8-4-4-4-12`), as `uuid`'s
 * `stringify` gives, written as bytes and decoded once: one flat string, with
 * no validation pass (every id here is built valid), at 100,000 ids a seeding.
 */
function formatUuid(bytes: Uint8Array): string {
  const out = new Uint8Array(36)
  let at = 0
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) out[at++] = DASH
    const byte = bytes[i]!
    out[at++] = HEX[byte >>> 4]!
    out[at++] = HEX[byte & 15]!
  }
  return latin1.decode(out)
}
