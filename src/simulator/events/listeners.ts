/**
 * A set of listeners told of events synchronously, in the order they were
 * added. One that throws is reported and the others still run, so a faulty
 * listener never fails the request that caused the event.
 *
 * @example
 * const listeners = new Listeners<string>('a test listener')
 * const off = listeners.add((event) => console.log(event))
 * listeners.emit('hello')
 * off()
 */
export class Listeners<T> {
  readonly #listeners = new Set<(event: T) => void>()
  /** Names a listener in the report of its failure: `an onChange listener`. */
  readonly #what: string

  constructor(what: string) {
    this.#what = what
  }

  /** Listeners now; callers skip building an event nobody hears. */
  get size(): number {
    return this.#listeners.size
  }

  add(listener: (event: T) => void): () => void {
    // Wrapped so the same function added twice is called twice and removed once each.
    const entry = (event: T) => listener(event)
    this.#listeners.add(entry)
    return () => void this.#listeners.delete(entry)
  }

  emit(event: T): void {
    for (const listener of this.#listeners) {
      try {
        listener(event)
      } catch (error) {
        console.error(`[multi-area-mock] ${this.#what} failed:`, error)
      }
    }
  }
}
