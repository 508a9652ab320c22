import { describe, expect, it } from 'vitest'
import { type IdState, nextId } from './ids.js'
import { SeededRandom } from './random.js'

describe('nextId', () => {
  const run = (seed: number, times: number[]) => {
    const random = new SeededRandom(seed)
    const state: IdState = { ms: -1, counter: 0 }
    return times.map((ms) => nextId(random, state, ms))
  }

  it('is a UUIDv7 carrying the creation instant', () => {
    const [id] = run(1, [Date.parse('2026-01-01T00:00:00Z')])
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(Number.parseInt(id!.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.parse('2026-01-01T00:00:00Z'))
  })

  it('keeps creation order within one millisecond (fixed clock)', () => {
    const ids = run(3, Array.from({ length: 500 }, () => 1_767_225_600_000))
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(500)
  })

  it('is reproducible per seed and differs across seeds (D24)', () => {
    const times = [1, 2, 2, 3]
    expect(run(5, times)).toEqual(run(5, times))
    expect(run(5, times)).not.toEqual(run(6, times))
  })
})

describe('SeededRandom', () => {
  it('exports its state as unsigned 32-bit words, as the state schema requires', () => {
    const random = new SeededRandom(1)
    for (let i = 0; i < 1000; i++) {
      random.next()
      for (const word of random.getState()) expect(word >>> 0).toBe(word)
    }
  })

  it('replays from an exported state', () => {
    const random = new SeededRandom(9)
    random.next()
    const state = random.getState()
    const expected = [random.next(), random.next()]
    random.setState(state)
    expect([random.next(), random.next()]).toEqual(expected)
  })
})
