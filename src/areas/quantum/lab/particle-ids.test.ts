import { describe, expect, it } from 'vitest'
import { nextId } from '../../../kernel/random/ids.js'
import { SeededRandom } from '../../../kernel/random/random.js'
import { FIXED_ID, particleIdFrom } from './particle-ids.js'

describe('particle ids (D24)', () => {
  it('are qp_ and 26 base32 digits of a world id, in creation order', () => {
    const random = new SeededRandom(9)
    const state = { base: 1_000_000, counter: 0 }
    const ids = Array.from({ length: 50 }, () => particleIdFrom(nextId(random, state)))
    for (const id of ids) expect(id).toMatch(/^qp_[0-9a-hjkmnp-tv-z]{26}$/)
    expect(new Set(ids).size).toBe(50)
    expect([...ids].sort()).toEqual(ids)
  })

  it('encode the id bytes exactly', () => {
    expect(particleIdFrom('00000000-0000-0000-0000-000000000000')).toBe(`qp_${'0'.repeat(26)}`)
    expect(particleIdFrom('00000000-0000-0000-0000-00000000001f')).toBe(`qp_${'0'.repeat(25)}z`)
    expect(particleIdFrom('ffffffff-ffff-ffff-ffff-ffffffffffff')).toBe(`qp_7${'z'.repeat(25)}`)
  })

  it('fixed ids must be URL-safe and start with a letter or digit', () => {
    for (const id of ['electron-alice', 'a', 'A.b_c~d-9', 'x'.repeat(128)]) expect(FIXED_ID.test(id), id).toBe(true)
    for (const id of ['', '.', '..', '-a', 'a/b', 'a b', 'a?b', 'a%20', 'ä', 'x'.repeat(129)]) expect(FIXED_ID.test(id), id).toBe(false)
  })
})
