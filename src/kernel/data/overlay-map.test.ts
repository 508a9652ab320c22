import { describe, expect, it } from 'vitest'
import { OverlayMap } from './overlay-map.js'

describe('OverlayMap', () => {
  it('reads the base until a key is set or deleted, and never changes the base', () => {
    const base = new Map([
      ['a', 1],
      ['b', 2],
    ])
    const map = new OverlayMap(base)
    expect(map.get('a')).toBe(1)
    map.set('a', 10)
    map.set('c', 3)
    map.delete('b')
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([10, undefined, 3])
    expect([map.has('b'), map.has('c')]).toEqual([false, true])
    map.set('b', 20)
    expect(map.get('b')).toBe(20)
    expect([...base]).toEqual([
      ['a', 1],
      ['b', 2],
    ])
    expect(new OverlayMap(base).get('a')).toBe(1)
  })
})
