import { ApiError } from '../../kernel/errors/api-error.js'
import { WorldBudget } from './world-budget.js'
import type { RecordCounts } from './world-records.js'
import { type CreateWorldOptions, DEFAULT_WORLD_ID, type WorldInfo, type WorldMember, type Worlds } from './worlds.js'

/** What a family snapshot keeps of the registry (`save`, `load`). */
export interface RegistryState {
  counter: number
  worlds: Array<{ id: string; createdAt: number; lastUsed: number; records: number }>
}

interface Entry<S> {
  sim: S
  createdAt: number
  lastUsed: number
  /** Used by a request here since the last `expiryCommands()` (worlds shared with replicas). */
  usedHere?: boolean
}

/** The `Worlds` of one simulator family, shared by the default world and every other. */
export class WorldRegistry<S extends WorldMember> implements Worlds<S> {
  readonly max: number
  readonly idleMs: number
  readonly #factory: (id: string, options: CreateWorldOptions) => S
  readonly #root: S
  readonly #now: () => number
  readonly #worlds = new Map<string, Entry<S>>()
  readonly #starting = new Set<string>()
  readonly #budget: WorldBudget
  #counter = 0
  /** Replicas share the worlds: idle expiry is decided by commands (`expiryCommands`), never here on a whim. */
  #shared = false

  /** `factory` makes the world; it calls `admit` with the world's records once it knows its scenario, before seeding. */
  constructor(
    root: S,
    factory: (id: string, options: CreateWorldOptions) => S,
    options: { max: number; idleMs: number; maxRecords: number; maxTotalRecords: number; now?: () => number },
  ) {
    this.#root = root
    this.#factory = factory
    this.max = options.max
    this.idleMs = options.idleMs
    this.#budget = new WorldBudget(options)
    this.#now = options.now ?? Date.now
  }

  get maxRecords(): number {
    return this.#budget.maxRecords
  }

  get maxTotalRecords(): number {
    return this.#budget.maxTotalRecords
  }

  get records(): number {
    this.#sweep()
    return this.#budget.total
  }

  /**
   * World `id` is to hold `counts` (a new world's scenario, a scenario or state
   * document loaded into one): checked against both limits before anything is
   * generated (413 `world_too_large`, 409 `conflict`), then charged. Returns
   * the undo, for a load that fails after all. A world already removed is
   * checked against the per-world limit only.
   */
  admit(id: string, counts: RecordCounts): () => void {
    this.#sweep()
    return this.#budget.admit(id, counts, this.#worlds.has(id) || this.#starting.has(id))
  }

  async create(options: CreateWorldOptions = {}): Promise<S> {
    this.#sweep()
    const id = options.id ?? this.#freshId()
    if (id === DEFAULT_WORLD_ID || this.#worlds.has(id) || this.#starting.has(id)) {
      throw new ApiError(409, 'conflict', `A world with id "${id}" already exists.`, { extra: { field: 'id' } })
    }
    if (this.#worlds.size + this.#starting.size >= this.max) {
      throw new ApiError(409, 'conflict', `The limit of ${this.max} worlds is reached; delete one (DELETE /__mock/worlds/{id}) or let idle ones expire.`, {
        extra: { limit: this.max },
      })
    }
    this.#starting.add(id)
    try {
      const sim = this.#factory(id, options)
      await sim.ready
      const now = this.#now()
      this.#worlds.set(id, { sim, createdAt: now, lastUsed: now })
      return sim
    } catch (error) {
      // A world refused or failed while starting keeps nothing of the budget.
      this.#budget.release(id)
      throw error
    } finally {
      this.#starting.delete(id)
    }
  }

  get(id: string): S | undefined {
    if (id === DEFAULT_WORLD_ID) return this.#root
    const entry = this.#worlds.get(id)
    if (!entry) return undefined
    if (this.#expired(entry)) {
      this.#remove(id)
      return undefined
    }
    return entry.sim
  }

  /** Like `get`, and counts as use: the world's idle time starts again (shared worlds: at the next `touch` command). */
  use(id: string): S | undefined {
    const sim = this.get(id)
    const entry = this.#worlds.get(id)
    if (sim && entry) {
      if (this.#shared) entry.usedHere = true
      else entry.lastUsed = this.#now()
    }
    return sim
  }

  /**
   * The worlds are shared with other replicas (`serve --store`): a world's idle
   * time is what commands say (its writes, `touch`), and it expires only by an
   * `expire` command, so every replica removes it at the same point of the log.
   */
  shareExpiry(): void {
    this.#shared = true
  }

  /** A command used world `id` (applied in the log's turn, the clock at its instant): its idle time starts again. */
  touch(id: string): void {
    const entry = this.#worlds.get(id)
    if (entry) entry.lastUsed = this.#now()
  }

  /** An `expire` command: removes world `id` if it is idle as of the command's instant (on every replica alike). */
  expire(id: string): boolean {
    const entry = this.#worlds.get(id)
    return entry !== undefined && this.#now() - entry.lastUsed > this.idleMs && this.#remove(id)
  }

  /** The registry's part of a family snapshot: the next `world-N`, and each world's times and records. */
  save(): RegistryState {
    const worlds = [...this.#worlds].map(([id, entry]) => ({ id, createdAt: entry.createdAt, lastUsed: entry.lastUsed, records: this.#budget.of(id) }))
    return { counter: this.#counter, worlds }
  }

  /** Puts back what `save` kept, for the worlds there are (the snapshot's, made before). */
  load(state: RegistryState): void {
    this.#counter = state.counter
    for (const { id, createdAt, lastUsed, records } of state.worlds) {
      const entry = this.#worlds.get(id)
      if (entry === undefined) continue
      Object.assign(entry, { createdAt, lastUsed })
      this.#budget.restore(id, records)
    }
  }

  /** What this replica has to tell the others: the worlds it used since it last asked (`touch`), and those now idle (`expire`). */
  expiryCommands(): { touch: string[]; expire: string[] } {
    const touch: string[] = []
    const expire: string[] = []
    for (const [id, entry] of this.#worlds) {
      if (entry.usedHere) touch.push(id)
      else if (this.#now() - entry.lastUsed > this.idleMs) expire.push(id)
      entry.usedHere = false
    }
    return { touch, expire }
  }

  list(): WorldInfo[] {
    this.#sweep()
    return [...this.#worlds].map(([id, entry]) => ({
      id,
      scenario: entry.sim.scenario,
      seed: entry.sim.seed,
      createdAt: new Date(entry.createdAt).toISOString(),
      lastUsedAt: new Date(entry.lastUsed).toISOString(),
      expiresAt: new Date(entry.lastUsed + this.idleMs).toISOString(),
      records: this.#budget.of(id),
    }))
  }

  delete(id: string): boolean {
    return this.#remove(id)
  }

  #remove(id: string): boolean {
    if (!this.#worlds.delete(id)) return false
    this.#budget.release(id)
    return true
  }

  #expired(entry: Entry<S>): boolean {
    return !this.#shared && this.#now() - entry.lastUsed > this.idleMs
  }

  /** Expiry is checked lazily (here and on use): no timers, nothing keeps a process alive. */
  #sweep(): void {
    for (const [id, entry] of this.#worlds) if (this.#expired(entry)) this.#remove(id)
  }

  #freshId(): string {
    let id: string
    do id = `world-${++this.#counter}`
    while (this.#worlds.has(id) || this.#starting.has(id))
    return id
  }
}
