import { v7 as uuidv7 } from 'uuid'
import type { SeededRandom } from './random.js'

/** Where the id generator stands: part of the world's snapshot so ids replay (D24). */
export interface IdState {
  /** Millisecond of the last id. */
  ms: number
  /** Counter within that millisecond. */
  counter: number
}

/**
 * Deterministic, time-ordered ids (UUIDv7, RFC 9562). The timestamp is the
 * record's creation instant; within one millisecond a counter, seeded randomly
 * for each new millisecond (RFC 9562 §6.2 method 1), keeps ids in creation
 * order even when a fixed clock gives many records the same instant. All
 * randomness comes from the world's seeded source, so the same seed and
 * requests give the same ids.
 *
 * @example
 * const id = nextId(random, state, Date.parse(createdAt))
 */
export function nextId(random: SeededRandom, state: IdState, msecs: number): string {
  if (msecs === state.ms) {
    state.counter = (state.counter + 1) & 0x7fffffff
  } else {
    state.ms = msecs
    // Top bit left clear so the counter has room to grow within the millisecond.
    state.counter = random.nextUint32() >>> 2
  }
  return uuidv7({ msecs, seq: state.counter, random: random.bytes(16) })
}
