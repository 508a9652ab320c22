import type { Randomizer } from '@faker-js/faker'

/** Four 32-bit words: the whole state of the generator, so it can be snapshotted. */
export type RandomState = [number, number, number, number]

/**
 * A seeded, snapshot-able pseudo-random source (sfc32). Faker's own generator
 * cannot export its state; ours can, so `snapshot()`/`restore()` and `reset()`
 * replay the same ids and values afterwards (D24).
 *
 * @example
 * const random = new SeededRandom(42)
 * random.next() // same number for seed 42, every run
 */
export class SeededRandom implements Randomizer {
  #s: RandomState = [0, 0, 0, 0]

  constructor(seed: number | number[]) {
    this.seed(seed)
  }

  seed = (seed: number | number[]): void => {
    const words = Array.isArray(seed) ? seed : [seed]
    // splitmix32 expands any seed into four well-mixed words.
    let x = 0x9e3779b9
    for (const word of words) x = Math.imul(x ^ (word >>> 0), 0x85ebca6b) >>> 0
    const next = () => {
      x = (x + 0x9e3779b9) >>> 0
      let z = x
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
      return (z ^ (z >>> 16)) >>> 0
    }
    this.#s = [next(), next(), next(), next()]
    for (let i = 0; i < 12; i++) this.nextUint32()
  }

  /** A float in [0, 1). An arrow property because faker calls it unbound. */
  next = (): number => this.nextUint32() / 4294967296

  nextUint32(): number {
    const s = this.#s
    const t = (((s[0] + s[1]) >>> 0) + s[3]) >>> 0
    s[3] = (s[3] + 1) >>> 0
    s[0] = (s[1] ^ (s[1] >>> 9)) >>> 0
    s[1] = (s[2] + (s[2] << 3)) >>> 0
    s[2] = ((s[2] << 21) | (s[2] >>> 11)) >>> 0
    s[2] = (s[2] + t) >>> 0
    return t
  }

  /** `count` random bytes: each 32-bit draw gives four, low byte first. */
  bytes(count: number): Uint8Array {
    return this.fill(new Uint8Array(count))
  }

  /**
   * Fills `out` with random bytes, drawn as `bytes(out.length)` draws them: the
   * salts of 100,000 users as one buffer rather than 100,000 small arrays.
   */
  fill(out: Uint8Array): Uint8Array {
    const count = out.length
    let i = 0
    for (; i + 4 <= count; i += 4) {
      const word = this.nextUint32()
      out[i] = word & 0xff
      out[i + 1] = (word >>> 8) & 0xff
      out[i + 2] = (word >>> 16) & 0xff
      out[i + 3] = word >>> 24
    }
    if (i < count) {
      const word = this.nextUint32()
      for (let j = 0; i + j < count; j++) out[i + j] = (word >>> (j * 8)) & 0xff
    }
    return out
  }

  getState(): RandomState {
    return [...this.#s] as RandomState
  }

  setState(state: RandomState): void {
    this.#s = [state[0] >>> 0, state[1] >>> 0, state[2] >>> 0, state[3] >>> 0]
  }
}
