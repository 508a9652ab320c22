import { describe, expect, it } from 'vitest'
import { byCreation, sortByCreation } from './creation-order.js'

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0
    return state / 2 ** 32
  }
}

function accounts(count: number, spanMs: number, seed: number, from = Date.UTC(2024, 0, 1)) {
  const next = random(seed)
  return Array.from({ length: count }, (_, i) => ({
    // Few distinct instants in the small spans: many ties, broken by id.
    created_at: new Date(from + Math.floor(next() * spanMs)).toISOString(),
    id: `${Math.floor(next() * 1e6).toString(36)}-${i}`,
  }))
}

describe('sortByCreation', () => {
  it.each([
    ['100,000 over two years', 100_000, 2 * 365 * 86_400_000, 1],
    ['5,000 over 50 ms (ties)', 5_000, 50, 2],
    ['3 over one ms', 3, 1, 3],
    ['20,000 over 9,000 years (packed numbers too large)', 20_000, 9_000 * 365 * 86_400_000, 4],
  ])('orders %s exactly as sort(byCreation)', (_, count, span, seed) => {
    const list = accounts(count, span, seed, span > 1e13 ? Date.UTC(100, 0, 1) : Date.UTC(2024, 0, 1))
    const expected = [...list].sort(byCreation)
    expect(sortByCreation(list)).toBe(list)
    expect(list).toEqual(expected)
  })

  it('sorts instants not in toISOString form as byCreation does (text order)', () => {
    const list = [
      { created_at: '2026-01-01T00:00:00Z', id: 'b' },
      { created_at: '2025-12-31T23:59:59.999Z', id: 'a' },
      { created_at: '2026-01-01T00:00:00.000Z', id: 'c' },
    ]
    const expected = [...list].sort(byCreation)
    expect(sortByCreation(list)).toEqual(expected)
  })

  it('keeps empty and single lists', () => {
    expect(sortByCreation([])).toEqual([])
    expect(sortByCreation([{ created_at: '2026-01-01T00:00:00.000Z', id: 'x' }])).toEqual([{ created_at: '2026-01-01T00:00:00.000Z', id: 'x' }])
  })
})
