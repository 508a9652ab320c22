import { notFound } from '../../../kernel/errors/api-error.js'
import { fillCollection } from '../../../kernel/data/fill-collection.js'
import { RecordIndex } from '../../../kernel/data/record-index.js'
import type { World } from '../../../world/world.js'
import { type Axis, parseAxis } from './axes.js'
import type { QuantumCollections } from '../collections.js'
import { type DefiniteState, type EntanglementMode, measure, type ParticleState } from './entanglement.js'
import { particleIdFrom } from './particle-ids.js'
import type { ParticleRecord, ParticleType } from '../schemas.js'

/** A measured particle and its partner, as stored afterwards. */
export interface MeasuredPair {
  particle: ParticleRecord
  partner: ParticleRecord
  /** `true` when this measurement was the pair's first and collapsed the partner. */
  partnerCollapsed: boolean
}

/**
 * Area C's domain: creates entangled pairs and measures particles (D16, D17)
 * over the `particles` collection. A measurement reads, draws and writes
 * synchronously, so two requests can never both see one pair in
 * superposition, and the seeded source is drawn in request order (D24).
 *
 * @example
 * const [a, b] = await lab.entangle('electron', 'spin')
 * const { particle, partner } = lab.measure(a.id, parseAxis('x-axis')!)
 */
export class ParticleLab {
  readonly #world: World
  readonly #collections: QuantumCollections
  readonly #byId: RecordIndex<ParticleRecord>

  constructor(world: World, collections: QuantumCollections) {
    this.#world = world
    this.#collections = collections
    this.#byId = new RecordIndex<ParticleRecord>(collections.particles, (record) => record.id)
  }

  get(id: string): ParticleRecord | undefined {
    return this.#byId.get(id)
  }

  /** A particle, or 404 with `particle_id` (D9, D17). */
  require(id: string): ParticleRecord {
    const particle = this.#byId.get(id)
    if (!particle) throw notFound(`No particle with id "${id}".`, { particle_id: id })
    return particle
  }

  /** A fresh particle id (D24), never one already in use. */
  newId(taken: (id: string) => boolean = (id) => this.#byId.has(id)): string {
    let id: string
    do id = particleIdFrom(this.#world.nextId())
    while (taken(id))
    return id
  }

  /** A new pair, both particles in superposition (D16). */
  async entangle(type: ParticleType, mode: EntanglementMode): Promise<[ParticleRecord, ParticleRecord]> {
    const a = this.newId()
    const b = this.newId((id) => id === a || this.#byId.has(id))
    const [recordA, recordB] = newPair({ ids: [a, b], type, mode, createdAt: this.#world.now() })
    return [await this.#collections.particles.create(recordA), await this.#collections.particles.create(recordB)]
  }

  /** Measures a particle along `axis` (D17); 404 for an unknown particle. */
  measure(id: string, axis: Axis): MeasuredPair {
    const particle = this.require(id)
    const partner = this.#byId.get(particle.partner_id)
    if (!partner) throw new Error(`Particle "${id}" has no partner "${particle.partner_id}".`)
    const outcome = measure(particle.entanglement_mode, toState(particle), toState(partner), axis, this.#world.random.next)
    const at = this.#world.now()
    return {
      particle: this.#write(particle, outcome.measured, at),
      partner: outcome.partnerCollapsed ? this.#write(partner, outcome.partner, at) : partner,
      partnerCollapsed: outcome.partnerCollapsed,
    }
  }

  /**
   * Every pair as [particle a, particle b], in creation order, both read
   * through the index: the objects measurements write to (see `#write`).
   */
  pairs(): Array<[ParticleRecord, ParticleRecord]> {
    const pairs: Array<[ParticleRecord, ParticleRecord]> = []
    for (const record of this.#collections.particles.all()) {
      if (record.role !== 'a') continue
      const a = this.#byId.get(record.id)
      const b = this.#byId.get(record.partner_id)
      if (a && b) pairs.push([a, b])
    }
    return pairs
  }

  /** Empties the collection, then stores `records` (already validated; `trusted`: see fillCollection). */
  async replaceAll(records: readonly ParticleRecord[], options?: { trusted?: boolean }): Promise<void> {
    this.#collections.particles.clear()
    await fillCollection(this.#collections.particles, records, options)
  }

  /**
   * Writes a measurement into the stored record itself. `Collection.update`
   * would find the record by scanning the collection and then rebuild it, so
   * a write would cost more the more particles exist. The record is the very object
   * the collection and the index hold, so the change shows in `sim.db` too;
   * only after a test's own `sim.db.particles.update(...)` does the index keep
   * another copy (see RecordIndex.refresh), and the API and the state follow
   * the index.
   */
  #write(record: ParticleRecord, next: DefiniteState, at: string): ParticleRecord {
    record.state = next.state
    record.measurement_axis = next.axis.name
    record.last_measured = at
    return record
  }
}

/** The two records of a new pair in superposition. */
export function newPair(pair: { ids: [string, string]; type: ParticleType; mode: EntanglementMode; createdAt: string }): [ParticleRecord, ParticleRecord] {
  const [a, b] = pair.ids
  const common = {
    particle_type: pair.type,
    entanglement_mode: pair.mode,
    created_at: pair.createdAt,
    state: 'superposition',
    measurement_axis: null,
    last_measured: null,
  } as const
  return [
    { id: a, partner_id: b, role: 'a', ...common },
    { id: b, partner_id: a, role: 'b', ...common },
  ]
}

/** A stored particle as the physics sees it. */
export function toState(record: ParticleRecord): ParticleState {
  if (record.state === 'superposition') return { state: 'superposition' }
  const axis = record.measurement_axis === null ? undefined : parseAxis(record.measurement_axis)
  if (!axis) throw new Error(`Particle "${record.id}" is ${record.state} along no valid axis (${record.measurement_axis}).`)
  return { state: record.state, axis }
}
