const MIN_CAPACITY = 64

/**
 * The order in which points were accepted across sensors, as a FIFO of sensor
 * slot numbers over one `Uint32Array` (4 bytes a point): the front names the
 * sensor holding the oldest point of the whole window. It grows by doubling
 * and shrinks after `compact` when mostly empty.
 *
 * @example
 * const order = new ArrivalOrder()
 * order.push(0); order.push(1)
 * order.shift() // 0
 */
export class ArrivalOrder {
  #slots = new Uint32Array(0)
  #head = 0
  #size = 0

  get size(): number {
    return this.#size
  }

  push(slot: number): void {
    if (this.#size === this.#slots.length) this.#resize(Math.max(MIN_CAPACITY, this.#slots.length * 2))
    this.#slots[(this.#head + this.#size) % this.#slots.length] = slot
    this.#size++
  }

  /** Removes and returns the front slot; the queue must not be empty. */
  shift(): number {
    const slot = this.#slots[this.#head]!
    this.#head = (this.#head + 1) % this.#slots.length
    this.#size--
    return slot
  }

  /** Keeps, in order, only the entries `keep` says yes to (called once per entry, front first). */
  compact(keep: (slot: number) => boolean): void {
    const capacity = this.#slots.length
    let kept = 0
    for (let i = 0; i < this.#size; i++) {
      const slot = this.#slots[(this.#head + i) % capacity]!
      // Writing behind the reading position is safe: kept <= i, and both run from the head.
      if (keep(slot)) this.#slots[(this.#head + kept++) % capacity] = slot
    }
    this.#size = kept
    let target = capacity
    while (target > MIN_CAPACITY && kept <= target / 4) target /= 2
    if (target < capacity) this.#resize(target)
  }

  clear(): void {
    this.#slots = new Uint32Array(0)
    this.#head = 0
    this.#size = 0
  }

  #resize(capacity: number): void {
    const slots = new Uint32Array(capacity)
    for (let i = 0; i < this.#size; i++) slots[i] = this.#slots[(this.#head + i) % this.#slots.length]!
    this.#slots = slots
    this.#head = 0
  }
}
