const GONE = Symbol('gone')

/**
 * A map written on top of a base map that is never changed: reads look at the
 * changes first, then the base. Many owners can share one large base (a
 * store's state after a load) and each start again from it for free by
 * dropping its changes. Values are never `undefined`.
 *
 * @example
 * const byId = new OverlayMap(loaded) // loaded: a Map of 10,000 users, shared
 * byId.set('new', user); byId.delete('old'); byId.get('old') // undefined; `loaded` unchanged
 */
export class OverlayMap<K, V> {
  readonly #base: ReadonlyMap<K, V>
  readonly #changes = new Map<K, V | typeof GONE>()

  constructor(base: ReadonlyMap<K, V>) {
    this.#base = base
  }

  get(key: K): V | undefined {
    if (this.#changes.size !== 0) {
      const changed = this.#changes.get(key)
      if (changed !== undefined) return changed === GONE ? undefined : changed
    }
    return this.#base.get(key)
  }

  has(key: K): boolean {
    return this.get(key) !== undefined
  }

  set(key: K, value: V): void {
    this.#changes.set(key, value)
  }

  delete(key: K): void {
    this.#changes.set(key, GONE)
  }
}
