/** Where `BodyArena.write` put a text: its virtual position and UTF-8 length. */
export interface ArenaSlot {
  at: number
  bytes: number
}

const INITIAL_BYTES = 64 * 1024

/**
 * The journal's text (URLs, headers, bodies) as UTF-8 bytes in one growable
 * ring buffer, first in, first out. Why not keep the strings: a journal entry
 * lives for the next `size` requests, long enough to survive a young-generation
 * GC or two, so every kept string was copied by the scavenger and then
 * promoted to the old generation, which cost the server 10–25 % of its
 * throughput on list requests (bench/README.md). Bytes in an `ArrayBuffer` are
 * never copied or scanned by the GC; the strings become garbage young, as they
 * would be without a journal.
 *
 * Positions are virtual (they only grow), so a slot stays valid until
 * `release` passes it; the buffer doubles whenever live bytes need more room,
 * so a body is never lost while its entry is kept. Works in any JavaScript
 * runtime (TextEncoder/TextDecoder only).
 *
 * @example
 * const arena = new BodyArena()
 * const slot = arena.write('{"ok":true}')
 * arena.read(slot) // '{"ok":true}'
 * arena.release(slot.at + slot.bytes) // once the entry holding it is gone
 */
export class BodyArena {
  readonly #encoder = new TextEncoder()
  readonly #decoder = new TextDecoder()
  #bytes = new Uint8Array(INITIAL_BYTES)
  /** Virtual position of the oldest live byte. */
  #tail = 0
  /** Virtual position of the next byte to write. */
  #head = 0
  /** Virtual position that sits at physical offset 0 (changes when the buffer grows). */
  #base = 0

  /** Bytes the buffer holds now (live or not). */
  get capacity(): number {
    return this.#bytes.length
  }

  write(text: string): ArenaSlot {
    for (;;) {
      const size = this.#bytes.length
      const free = size - (this.#head - this.#tail)
      const at = (this.#head - this.#base) % size
      const room = Math.min(size - at, free)
      const { read, written } = this.#encoder.encodeInto(text, this.#bytes.subarray(at, at + room))
      if (read === text.length) {
        const slot = { at: this.#head, bytes: written }
        this.#head += written
        return slot
      }
      // Not enough contiguous room: skip the buffer's end when the start has more, else grow.
      if (at + room === size && free - room > room) this.#head += size - at
      else this.#grow()
    }
  }

  /** The text of a slot, or `undefined` once it was released. */
  read(slot: ArenaSlot): string | undefined {
    if (slot.at < this.#tail) return undefined
    const at = (slot.at - this.#base) % this.#bytes.length
    return this.#decoder.decode(this.#bytes.subarray(at, at + slot.bytes))
  }

  /** Frees everything before virtual position `end` (the end of the oldest slot still needed). */
  release(end: number): void {
    if (end > this.#tail) this.#tail = Math.min(end, this.#head)
  }

  clear(): void {
    this.#bytes = new Uint8Array(INITIAL_BYTES)
    // Positions keep growing, so a slot from before the clear never reads as live.
    this.#tail = this.#base = this.#head
  }

  /** Doubles the buffer, moving the live bytes to its start in order. */
  #grow(): void {
    const old = this.#bytes
    const used = this.#head - this.#tail
    const next = new Uint8Array(old.length * 2)
    const from = (this.#tail - this.#base) % old.length
    const first = Math.min(used, old.length - from)
    next.set(old.subarray(from, from + first), 0)
    if (first < used) next.set(old.subarray(0, used - first), first)
    this.#bytes = next
    this.#base = this.#tail
  }
}
