const INITIAL_BYTES = 64 * 1024

/**
 * The journal's text (URLs, headers, bodies) as UTF-8 bytes in one growable
 * ring buffer, first in, first out. Why bytes, not the strings: kept strings
 * outlive young-generation GCs and get promoted (bench/README.md#journal-cost).
 *
 * Positions are virtual (they only grow), so a text stays readable at its
 * position until `release` passes it; the buffer doubles whenever live bytes
 * need more room, so a body is never lost while its entry is kept. `write`
 * returns a plain number and allocates nothing the caller keeps. Works in any
 * JavaScript runtime (TextEncoder/TextDecoder only).
 *
 * @example
 * const arena = new BodyArena()
 * const at = arena.write('{"ok":true}')
 * const bytes = arena.lastBytes
 * arena.read(at, bytes) // '{"ok":true}'
 * arena.release(at + bytes) // once the entry holding it is gone
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
  #lastBytes = 0

  /** Bytes the buffer holds now (live or not). */
  get capacity(): number {
    return this.#bytes.length
  }

  /** UTF-8 length of the text the last `write` stored. */
  get lastBytes(): number {
    return this.#lastBytes
  }

  /** Stores `text`; returns its position (its length in bytes is then `lastBytes`). */
  write(text: string): number {
    for (;;) {
      const size = this.#bytes.length
      const free = size - (this.#head - this.#tail)
      const at = (this.#head - this.#base) % size
      const room = Math.min(size - at, free)
      const { read, written } = this.#encoder.encodeInto(text, this.#bytes.subarray(at, at + room))
      if (read === text.length) {
        const position = this.#head
        this.#head += written
        this.#lastBytes = written
        return position
      }
      // Not enough contiguous room: skip the buffer's end when the start has more, else grow.
      if (at + room === size && free - room > room) this.#head += size - at
      else this.#grow()
    }
  }

  /** The text of `bytes` bytes at `position`, or `undefined` once it was released. */
  read(position: number, bytes: number): string | undefined {
    if (position < this.#tail) return undefined
    const at = (position - this.#base) % this.#bytes.length
    return this.#decoder.decode(this.#bytes.subarray(at, at + bytes))
  }

  /** Frees everything before virtual position `end` (the end of the oldest text still needed). */
  release(end: number): void {
    if (end > this.#tail) this.#tail = Math.min(end, this.#head)
  }

  /**
   * Moves every position down so they stay small integers (V8 keeps integers
   * below 2^30 unboxed; past that, arithmetic on positions slowed every write).
   * Returns how far: a holder subtracts it from each position still held.
   */
  rebase(): number {
    const shift = this.#tail - ((this.#tail - this.#base) % this.#bytes.length)
    this.#tail -= shift
    this.#head -= shift
    this.#base = 0
    return shift
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
