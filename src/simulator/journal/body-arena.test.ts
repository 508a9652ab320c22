import { describe, expect, it } from 'vitest'
import { BodyArena } from './body-arena.js'

/** A text's place in the arena, as the journal keeps it. */
interface Slot {
  at: number
  bytes: number
}

function write(arena: BodyArena, text: string): Slot {
  const at = arena.write(text)
  return { at, bytes: arena.lastBytes }
}

describe('BodyArena', () => {
  it('gives back every text written, in any script, until it is released', () => {
    const arena = new BodyArena()
    const texts = ['{"ok":true}', 'Grüße, 世界 🌍', '', 'x'.repeat(1000)]
    const slots = texts.map((text) => write(arena, text))
    expect(slots.map((slot) => arena.read(slot.at, slot.bytes))).toEqual(texts)
    arena.release(slots[1]!.at + slots[1]!.bytes)
    expect(arena.read(slots[0]!.at, slots[0]!.bytes)).toBeUndefined()
    expect(arena.read(slots[2]!.at, slots[2]!.bytes)).toBe('')
    expect(arena.read(slots[3]!.at, slots[3]!.bytes)).toBe('x'.repeat(1000))
  })

  it('wraps around as a FIFO without growing when old bodies are released', () => {
    const arena = new BodyArena()
    const start = arena.capacity
    const live: Array<[Slot, string]> = []
    for (let i = 0; i < 5000; i++) {
      const text = `${i}:${'é'.repeat(i % 700)}`
      live.push([write(arena, text), text])
      // Keep the last 20 bodies, as a journal keeps its last entries.
      if (live.length > 20) {
        const [old] = live.shift()!
        arena.release(old.at + old.bytes)
      }
      for (const [slot, kept] of live) expect(arena.read(slot.at, slot.bytes)).toBe(kept)
    }
    expect(arena.capacity).toBe(start)
  })

  it('grows instead of overwriting a body still needed, and keeps it readable', () => {
    const arena = new BodyArena()
    const big = 'ab'.repeat(50_000)
    const slots = [write(arena, 'first'), write(arena, big), write(arena, big.toUpperCase())]
    expect(arena.capacity).toBeGreaterThan(200_000)
    expect(slots.map((slot) => arena.read(slot.at, slot.bytes))).toEqual(['first', big, big.toUpperCase()])
  })

  it('starts over empty after clear', () => {
    const arena = new BodyArena()
    const slot = write(arena, 'a'.repeat(300_000))
    arena.clear()
    expect(arena.read(slot.at, slot.bytes)).toBeUndefined()
    const again = write(arena, 'again')
    expect(arena.read(again.at, again.bytes)).toBe('again')
  })

  it('moves positions back down on rebase, every live text still readable at its shifted position', () => {
    const arena = new BodyArena()
    const live: Array<[Slot, string]> = []
    for (let i = 0; i < 3000; i++) {
      const text = `${i}:${'ü'.repeat(i % 500)}`
      live.push([write(arena, text), text])
      if (live.length > 30) {
        const [old] = live.shift()!
        arena.release(old.at + old.bytes)
      }
      if (i % 700 === 699) {
        const shift = arena.rebase()
        expect(shift).toBeGreaterThan(0)
        for (const [slot] of live) slot.at -= shift
        expect(Math.min(...live.map(([slot]) => slot.at))).toBeLessThan(arena.capacity)
      }
      for (const [slot, kept] of live) expect(arena.read(slot.at, slot.bytes)).toBe(kept)
    }
  })
})
