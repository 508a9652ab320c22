import type { Collection } from '@msw/data'

/**
 * A unique key → record map kept in step with an @msw/data collection through
 * its public hooks (`create`, `update`, `delete`), so lookups by id or username
 * are O(1) instead of a scan, and stay right even when a test writes to
 * `sim.db` directly. It is also the project's one workaround for @msw/data's
 * `clear()`, which fires only half the delete hooks (see `#check`).
 *
 * @example
 * const byId = new RecordIndex(users, (user) => user.id)
 * byId.get('0194…')
 */
export class RecordIndex<T extends object> {
  readonly #map = new Map<string, T>()
  readonly #key: (record: T) => string
  // biome-ignore lint/suspicious/noExplicitAny: a collection of any record type (@msw/data's Collection is invariant in its schema)
  readonly #collection: Collection<any>

  // biome-ignore lint/suspicious/noExplicitAny: a collection of any record type (@msw/data's Collection is invariant in its schema)
  constructor(collection: Collection<any>, key: (record: T) => string) {
    this.#key = key
    this.#collection = collection
    this.#rebuild()
    collection.hooks.on('create', (event) => {
      this.#map.set(key(event.data.record as T), event.data.record as T)
    })
    collection.hooks.on('update', (event) => {
      const prev = key(event.data.prevRecord as T)
      const next = key(event.data.nextRecord as T)
      if (prev !== next) this.#map.delete(prev)
      this.#map.set(next, event.data.nextRecord as T)
    })
    collection.hooks.on('delete', (event) => {
      this.#map.delete(key(event.data.deletedRecord as T))
    })
  }

  get(key: string): T | undefined {
    this.#check()
    return this.#map.get(key)
  }

  has(key: string): boolean {
    this.#check()
    return this.#map.has(key)
  }

  /** Call after an update resolves: the hook saw a draft-time object. */
  refresh(record: T): void {
    this.#map.set(this.#key(record), record)
  }

  /**
   * The project's one workaround for @msw/data's `clear()` (since 1.1.2,
   * still in 1.1.7; reproduction in docs/upstream-bugs.md): it deletes while
   * it iterates, so only every other record fires its delete hook, and this
   * map keeps the rest. Every record ever created fired its
   * create hook, so the map holds every key of the collection; keys are unique,
   * so a size that differs from `count()` means stale keys: start over. Drop it
   * (and this check) once `record-index.test.ts`'s pin of the bug fails.
   */
  #check(): void {
    if (this.#map.size !== this.#collection.count()) this.#rebuild()
  }

  #rebuild(): void {
    this.#map.clear()
    for (const record of this.#collection.all()) this.#map.set(this.#key(record as T), record as T)
  }
}
