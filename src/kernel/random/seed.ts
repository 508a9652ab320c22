import * as z from 'zod'

/** Largest seed: the generator takes a seed as one 32-bit word, so a larger one would alias a smaller one. */
export const MAX_SEED = 0xffff_ffff

/** What a seed may be, as messages say it. */
export const SEED_EXPECTED = `expected an integer from 0 to ${MAX_SEED}`

/**
 * A seed (D24): an integer from 0 to 2^32 - 1. Negative and larger seeds are
 * refused rather than wrapped, so two seeds that look different never give the
 * same world. One schema for every way a seed comes in.
 *
 * @example
 * seedSchema().parse(42) // 42
 * seedSchema().safeParse(-5).success // false
 */
export function seedSchema(message: string = SEED_EXPECTED) {
  return z.int(message).min(0, message).max(MAX_SEED, message)
}
