import { describe, expect, it } from 'vitest'
import { type ArenaSlot, BodyArena } from './body-arena.js'

describe('BodyArena', () => {
  it('gives back every text written, in any script, until it is released', () => {
    const arena = new BodyArena()
    const texts = ['{"ok":true}', 'Grüße, 世界 🌍', '', 'x'.repeat(1000)]
    const slots = texts.map((text) => arena.write(text))
    expect(slots.map((slot) => arena.read(slot))).toEqual(texts)
    arena.release(slots[1]!.at + slots[1]!.bytes)
    expect(arena.read(slots[0]!)).toBeUndefined()
    expect(arena.read(slots[2]!)).toBe('')
    expect(arena.read(slots[3]!)).toBe('x'.repeat(1000))
  })

  it('wraps around as a FIFO without growing when old bodies are released', () => {
    const arena = new BodyArena()
    const start = arena.capacity
    const live: Array<[ArenaSlot, string]> = []
    for (let i = 0; i < 5000; i++) {
      const text = `${i}:${'é'.repeat(i % 700)}`
      live.push([arena.write(text), text])
      // Keep the last 20 bodies, as a journal keeps its last entries.
      if (live.length > 20) {
        const [old] = live.shift()!
        arena.release(old.at + old.bytes)
      }
      for (const [slot, kept] of live) expect(arena.read(slot)).toBe(kept)
    }
    expect(arena.capacity).toBe(start)
  })

  it('grows instead of overwriting a body still needed, and keeps it readable', () => {
    const arena = new BodyArena()
    const big = 'ab'.repeat(50_000)
    const slots = [arena.write('first'), arena.write(big), arena.write(big.toUpperCase())]
    expect(arena.capacity).toBeGreaterThan(200_000)
    expect(slots.map((slot) => arena.read(slot))).toEqual(['first', big, big.toUpperCase()])
  })

  it('starts over empty after clear', () => {
    const arena = new BodyArena()
    const slot = arena.write('a'.repeat(300_000))
    arena.clear()
    expect(arena.read(slot)).toBeUndefined()
    expect(arena.read(arena.write('again'))).toBe('again')
  })
})
