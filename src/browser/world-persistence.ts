import type { ClockSetting } from '../kernel/time/sim-clock.js'
import type { Simulator } from '../simulator/simulator.js'
import type { WorldState } from '../simulator/state/scenario-schema.js'

/** The part of the Web Storage API persistence needs (a fake one in tests). */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

/** What is kept under the storage key. */
interface SavedWorld {
  format: 1
  /** The start options it belongs to (see `persistIdentity`); another identity starts fresh. */
  identity: string
  /** The scenario loaded when it was saved (one loaded at run time survives a reload too). */
  scenario: string
  clock: ClockSetting
  world: WorldState
}

export interface WorldPersistenceOptions {
  storage: StorageLike
  /** The one storage key of this app's world. */
  key: string
  /** Seed, scenario and the other start options the saved world must match. */
  identity: string
  /** For messages: `'sessionStorage'`. */
  storageName: string
  /** Where problems go; once each per kind of problem. Default `console.warn`. */
  warn?: (message: string) => void
}

/**
 * Keeps a simulator's whole world in Web Storage so it survives a page reload:
 * `restore()` once at start, then `attach()` saves `sim.snapshot()` (password
 * hashes included) after every change. A full storage or a storage that
 * refuses access gives one warning and the app keeps working without it.
 *
 * @example
 * const persistence = new WorldPersistence(sim, { storage: sessionStorage, key: 'multi-area-mock', identity, storageName: 'sessionStorage' })
 * await persistence.restore() // 'restored' or 'fresh'
 * const detach = persistence.attach()
 */
export class WorldPersistence {
  readonly #sim: Simulator
  readonly #options: WorldPersistenceOptions
  readonly #warned = new Set<string>()

  constructor(sim: Simulator, options: WorldPersistenceOptions) {
    this.#sim = sim
    this.#options = options
  }

  /**
   * Replaces the seeded world with the saved one when it was saved for the
   * same identity. A saved world of other options, or one that no longer
   * validates, is dropped and the seeded world stays.
   */
  async restore(): Promise<'restored' | 'fresh'> {
    await this.#sim.ready
    let text: string | null
    try {
      text = this.#options.storage.getItem(this.#options.key)
    } catch (error) {
      this.#warnOnce('read', `Could not read the saved world from ${this.#options.storageName} (${reason(error)}); starting from the seeded scenario.`)
      return 'fresh'
    }
    if (text === null) return 'fresh'
    let saved: SavedWorld
    try {
      saved = JSON.parse(text) as SavedWorld
      if (saved.format !== 1 || typeof saved.identity !== 'string') throw new Error('unknown format')
    } catch (error) {
      this.#drop(`the saved world in ${this.#options.storageName} is unreadable (${reason(error)})`)
      return 'fresh'
    }
    // Other seed, scenario or options: start fresh; the next save overwrites it.
    if (saved.identity !== this.#options.identity) return 'fresh'
    const configured = this.#sim.scenario
    const known = (name: string) => this.#sim.listScenarios().some((entry) => entry.name === name)
    try {
      // So that reset() afterwards returns to the scenario the saved world came from.
      if (saved.scenario !== configured && known(saved.scenario)) await this.#sim.loadScenario(saved.scenario)
      await this.#sim.restore(saved.world)
      this.#sim.clock.restore(saved.clock)
    } catch (error) {
      if (this.#sim.scenario !== configured && known(configured)) await this.#sim.loadScenario(configured)
      else await this.#sim.reset()
      this.#drop(`the saved world in ${this.#options.storageName} does not fit this version (${reason(error)})`)
      return 'fresh'
    }
    return 'restored'
  }

  /** Saves the world now; `false` (after one warning) when the storage refused it. */
  save(): boolean {
    const saved: SavedWorld = {
      format: 1,
      identity: this.#options.identity,
      scenario: this.#sim.scenario,
      clock: this.#sim.clock.save(),
      world: this.#sim.snapshot(),
    }
    const text = JSON.stringify(saved)
    try {
      this.#options.storage.setItem(this.#options.key, text)
      return true
    } catch (error) {
      const full = isQuotaExceeded(error)
      // An older copy must not come back on reload as if it were current.
      this.#remove()
      this.#warnOnce(
        full ? 'full' : 'write',
        full
          ? `${this.#options.storageName} is full: the world (${Math.ceil(text.length / 1024)} KiB as JSON) was not saved. The app keeps working; a reload starts from the seeded scenario. Use persist: 'local', or a smaller scenario.`
          : `Could not save the world to ${this.#options.storageName} (${reason(error)}). The app keeps working; a reload starts from the seeded scenario.`,
      )
      return false
    }
  }

  /** Forgets the saved world: the next start seeds afresh. */
  clear(): void {
    this.#remove()
  }

  /** Saves after every change of the world until the returned function is called. */
  attach(): () => void {
    return this.#sim.onChange(() => void this.save())
  }

  #drop(problem: string): void {
    this.#remove()
    this.#warnOnce('restore', `Starting from the seeded scenario: ${problem}.`)
  }

  #remove(): void {
    try {
      this.#options.storage.removeItem(this.#options.key)
    } catch {
      // A storage that refuses even this has nothing of ours to remove.
    }
  }

  #warnOnce(kind: string, message: string): void {
    if (this.#warned.has(kind)) return
    this.#warned.add(kind)
    ;(this.#options.warn ?? console.warn)(`[multi-area-mock] ${message}`)
  }
}

/** Browsers name it differently; old Firefox used a code instead of the name. */
function isQuotaExceeded(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { name, code } = error as { name?: unknown; code?: unknown }
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED' || code === 22 || code === 1014
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
