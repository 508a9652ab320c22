/** Smallest allocation once a ring holds anything: growing from 1 would copy too often. */
const MIN_CAPACITY = 16

/**
 * One sensor's kept points, oldest first: a ring buffer over one `Float64Array`
 * holding `timestamp ms, value` pairs (16 bytes a point, no object per point).
 * It grows by doubling up to `limit` points, halves when three quarters are
 * empty and lets go of its buffer when empty, so a sensor the window has moved
 * past costs almost nothing. The caller keeps `size` within `limit` (D15 window).
 *
 * @example
 * const ring = new PointRing(10_000)
 * ring.push(Date.parse('2026-01-01T00:00:00Z'), 21.5)
 * ring.shift() // drops the oldest point
 */
export class PointRing {
  readonly limit: number
  #data = new Float64Array(0)
  #head = 0
  #size = 0

  constructor(limit: number) {
    this.limit = limit
  }

  /** Points held. */
  get size(): number {
    return this.#size
  }

  /** Adds a point after the newest; the ring must not be full (`size < limit`). */
  push(time: number, value: number): void {
    const capacity = this.#data.length / 2
    if (this.#size === capacity) this.#resize(Math.min(this.limit, Math.max(MIN_CAPACITY, capacity * 2)))
    const at = ((this.#head + this.#size) % (this.#data.length / 2)) * 2
    this.#data[at] = time
    this.#data[at + 1] = value
    this.#size++
  }

  /** Drops the oldest point; the ring must not be empty. */
  shift(): void {
    this.#head = (this.#head + 1) % (this.#data.length / 2)
    this.#size--
    const capacity = this.#data.length / 2
    if (this.#size === 0) this.clear()
    // Rounded up: a window like 10,000 halves to 5,000, 2,500, 1,250, 625, 313, never to a fraction.
    else if (capacity > MIN_CAPACITY && this.#size <= capacity / 4) this.#resize(Math.ceil(capacity / 2))
  }

  /** Calls `visit` with every point, oldest first. */
  forEach(visit: (time: number, value: number) => void): void {
    const capacity = this.#data.length / 2
    for (let i = 0; i < this.#size; i++) {
      const at = ((this.#head + i) % capacity) * 2
      visit(this.#data[at]!, this.#data[at + 1]!)
    }
  }

  clear(): void {
    this.#data = new Float64Array(0)
    this.#head = 0
    this.#size = 0
  }

  /** Copies the points, oldest first, into a buffer of `capacity` points. */
  #resize(capacity: number): void {
    const data = new Float64Array(capacity * 2)
    const old = this.#data.length / 2
    for (let i = 0; i < this.#size; i++) {
      const from = ((this.#head + i) % old) * 2
      data[i * 2] = this.#data[from]!
      data[i * 2 + 1] = this.#data[from + 1]!
    }
    this.#data = data
    this.#head = 0
  }
}
