import { base, Faker, type LocaleDefinition } from '@faker-js/faker'
import fakerEn from '../../fixtures/faker-en.json' with { type: 'json' }
import type { SimClock } from '../kernel/time/sim-clock.js'
import { type IdState, initialIdState, nextId } from '../kernel/random/ids.js'
import { isoString } from '../kernel/time/iso-string.js'
import { type RandomState, SeededRandom } from '../kernel/random/random.js'
import { PasswordHasher, type PasswordKeys } from '../kernel/crypto/password.js'
import type { SealedPassword } from '../kernel/crypto/sealed-password.js'

/**
 * The world salt of a world seeded with `seed`: every stored password hash of
 * that world is keyed with it.
 *
 * @example
 * passwordSalt(1) // 'multi-area-mock/1'
 */
export function passwordSalt(seed: number): string {
  return `multi-area-mock/${seed}`
}

/** Largest ingestion batch by default, in points (D15). */
export const DEFAULT_INGEST_POINTS = 10_000

/** Limits a simulator enforces (D11, D15), configurable per instance. */
export interface WorldLimits {
  /** Largest accepted request body in bytes (D11). Default 1 MiB. */
  bodyBytes: number
  /** Largest accepted ingestion batch in points (D15). Default 10,000. */
  ingestPoints: number
}

/** The counters that make ids and random values reproducible (D24). */
export interface WorldMeta {
  ids: IdState
  random: RandomState
}

/**
 * What every area shares (D4): one clock, one seeded random source (also
 * driving faker), one id generator and the limits. One `World` per simulator,
 * passed in explicitly: no module-level state.
 *
 * @example
 * const world = new World({ seed: 1, clock: toSimClock('2026-01-01T00:00:00Z'), limits })
 * world.nextId()
 */
export class World {
  readonly clock: SimClock
  readonly random: SeededRandom
  readonly faker: Faker
  readonly limits: WorldLimits
  seed: number
  /** Hashes and checks this world's passwords; each distinct password's key is derived once. */
  readonly passwords: PasswordHasher
  #ids: IdState

  #nowMs = Number.NaN
  #nowText = ''

  /**
   * `passwordKeys`: derived password keys shared with the other worlds of one
   * simulator (pure memo, no state); `sealed`: the sealed password a text stands
   * for while a kept command is applied.
   */
  constructor(options: { seed: number; clock: SimClock; limits: WorldLimits; passwordKeys?: PasswordKeys; sealed?: (text: string) => SealedPassword | undefined }) {
    this.seed = options.seed
    this.passwords = new PasswordHasher(() => passwordSalt(this.seed), { keys: options.passwordKeys, sealed: options.sealed })
    this.clock = options.clock
    this.limits = options.limits
    this.random = new SeededRandom(options.seed)
    this.#ids = initialIdState(this.random)
    // Only the lists seeding uses (see faker-definitions.ts), not the whole `en` locale.
    this.faker = new Faker({ locale: [fakerEn as LocaleDefinition, base], randomizer: this.random })
  }

  /** The current instant as an ISO 8601 UTC string. */
  now(): string {
    // Formatting is most of the cost and many requests share a millisecond (all of them on a fixed clock).
    const ms = this.clock.nowMs()
    if (ms !== this.#nowMs) {
      this.#nowMs = ms
      this.#nowText = isoString(ms)
    }
    return this.#nowText
  }

  /** A fresh id: ordered by creation, independent of the clock (D24). */
  nextId(): string {
    return nextId(this.random, this.#ids)
  }

  /** Starts the random source and sequence again from `seed`. */
  reseed(seed: number): void {
    this.seed = seed
    this.random.seed(seed)
    this.#ids = initialIdState(this.random)
  }

  getMeta(): WorldMeta {
    return { ids: { ...this.#ids }, random: this.random.getState() }
  }

  setMeta(meta: WorldMeta): void {
    this.#ids = { ...meta.ids }
    this.random.setState(meta.random)
  }
}
