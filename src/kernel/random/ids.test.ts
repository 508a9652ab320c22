import { parse, stringify } from 'uuid'
import { describe, expect, it } from 'vitest'
import { initialIdState, nextId } from './ids.js'
import { SeededRandom } from './random.js'

describe('nextId', () => {
  const run = (seed: number, count: number) => {
    const random = new SeededRandom(seed)
    const state = initialIdState(random)
    return Array.from({ length: count }, () => nextId(random, state))
  }

  it('is an RFC 9562 UUIDv8', () => {
    for (const id of run(1, 50)) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('sorts in creation order', () => {
    const ids = run(3, 2000)
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(2000)
  })

  it('spells ids exactly as uuid does', () => {
    for (const id of run(9, 500)) expect(stringify(parse(id))).toBe(id)
  })

  it('is reproducible per seed and differs across seeds (D24)', () => {
    expect(run(5, 4)).toEqual(run(5, 4))
    expect(run(5, 4)).not.toEqual(run(6, 4))
  })
})

describe('SeededRandom', () => {
  it('gives four bytes per draw, low byte first, whatever the count', () => {
    for (const count of [1, 3, 4, 5, 16, 17]) {
      const [a, b] = [new SeededRandom(4), new SeededRandom(4)]
      const expected: number[] = []
      while (expected.length < count) {
        const word = b.nextUint32()
        for (let j = 0; j < 4 && expected.length < count; j++) expected.push((word >>> (j * 8)) & 0xff)
      }
      expect([...a.bytes(count)]).toEqual(expected)
    }
  })

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
