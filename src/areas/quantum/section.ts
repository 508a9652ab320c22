import type { StoreOf } from '../../world/section.js'
import type { World } from '../../world/world.js'
import { parseAxis } from './lab/axes.js'
import { type EntanglementMode, measure, type Measurement, opposite } from './lab/entanglement.js'
import { newPair, type ParticleLab } from './lab/particle-lab.js'
import type { Platform } from './platform.js'
import { type ParticleRecord, type ParticleType, platformSettings, type QuantumScenario, quantumScenario, quantumState, type StatePair } from './schemas.js'

const DAY_MS = 86_400_000
const DEFAULT_PLATFORM = platformSettings.parse({})
const SPIN_TYPES: readonly ParticleType[] = ['electron', 'positron', 'proton', 'neutron']
const GENERATED_AXES = ['x-axis', 'y-axis', 'z-axis'] as const

/** Area C's place in scenarios and state: `quantum`. */
export const quantumSectionSchemas = {
  key: 'quantum',
  scenarioSchema: quantumScenario.optional().describe('Area C: entangled pairs and the platform status.'),
  stateSchema: quantumState.prefault({}),
} as const

/**
 * The `quantum` section of scenarios and state (Area C): the platform status
 * (D18) and every pair, half-measured ones included, so snapshot/restore and
 * reset bring the world back exactly.
 */
export function quantumSection(world: World, lab: ParticleLab, platform: Platform): StoreOf<typeof quantumSectionSchemas> {
  return {
    async load(scenario) {
      const records = scenarioRecords(world, lab, scenario)
      platform.replace(scenario?.platform ?? DEFAULT_PLATFORM)
      await lab.replaceAll(records)
    },
    export() {
      const { platform: settings, recent_operations } = platform.export()
      return { platform: settings, pairs: lab.pairs().map(toStatePair), recent_operations }
    },
    async import(state, options) {
      platform.replace(state.platform, state.recent_operations)
      await lab.replaceAll(state.pairs.flatMap(fromStatePair), options)
    },
  }
}

/**
 * The particles a scenario asks for: the listed pairs in order, then the
 * generated ones (spin, then polarization; superposition, then collapsed).
 * Generated pairs: photons for polarization, a seeded fermion type for spin,
 * created within the last 24 h of the simulator clock; collapsed ones had a
 * seeded particle measured along a seeded x, y or z axis since.
 */
function scenarioRecords(world: World, lab: ParticleLab, scenario: QuantumScenario | undefined): ParticleRecord[] {
  const listed = scenario?.pairs ?? []
  const taken = new Set(listed.flatMap((pair) => pair.particle_ids ?? []))
  const fresh = (): string => {
    const id = lab.newId((candidate) => taken.has(candidate))
    taken.add(id)
    return id
  }
  const draw = world.random.next
  const pick = <T>(items: readonly T[]): T => items[Math.floor(draw() * items.length)]!
  const records: ParticleRecord[] = []

  for (const pair of listed) {
    const mode = pair.entanglement_mode
    const createdAt = pair.created_at ? iso(pair.created_at) : world.now()
    const ids = pair.particle_ids ?? [fresh(), fresh()]
    const particles = newPair({ ids, type: pair.particle_type ?? (mode === 'polarization' ? 'photon' : 'electron'), mode, createdAt })
    const measured = pair.measured
    if (measured) {
      const axis = parseAxis(measured.axis)!
      const outcome = measured.result
        ? ({ measured: { state: measured.result, axis }, partner: { state: opposite(measured.result), axis }, partnerCollapsed: true } as const)
        : firstMeasurement(mode, axis.name, draw)
      const measuredAt = measured.at ? iso(measured.at) : createdAt
      collapse(particles, measured.particle === 'a' ? 0 : 1, outcome, measuredAt)
      particles.forEach((record, index) => {
        const later = measured.remeasured?.[index === 0 ? 'a' : 'b']
        if (later) Object.assign(record, { state: later.result, measurement_axis: later.axis, last_measured: later.at ? iso(later.at) : measuredAt })
      })
    }
    records.push(...particles)
  }

  const now = world.clock.nowMs()
  for (const mode of ['spin', 'polarization'] as const) {
    const counts = scenario?.generate?.[mode]
    for (const collapsed of [false, true]) {
      const count = (collapsed ? counts?.collapsed : counts?.superposition) ?? 0
      for (let i = 0; i < count; i++) {
        const type = mode === 'polarization' ? 'photon' : pick(SPIN_TYPES)
        const created = now - Math.floor(draw() * DAY_MS)
        const pair = newPair({ ids: [fresh(), fresh()], type, mode, createdAt: new Date(created).toISOString() })
        if (collapsed) {
          const which = draw() < 0.5 ? 0 : 1
          const outcome = firstMeasurement(mode, pick(GENERATED_AXES), draw)
          collapse(pair, which, outcome, new Date(created + Math.floor(draw() * (now - created))).toISOString())
        }
        records.push(...pair)
      }
    }
  }
  return records
}

function firstMeasurement(mode: EntanglementMode, axis: string, draw: () => number): Measurement {
  return measure(mode, { state: 'superposition' }, { state: 'superposition' }, parseAxis(axis)!, draw)
}

/** Applies a pair's first measurement: particle `which` measured, its partner collapsed. */
function collapse(pair: [ParticleRecord, ParticleRecord], which: 0 | 1, outcome: Measurement, at: string): void {
  const apply = (record: ParticleRecord, state: Measurement['measured']) => {
    record.state = state.state
    record.measurement_axis = state.axis.name
    record.last_measured = at
  }
  apply(pair[which], outcome.measured)
  apply(pair[1 - which]!, outcome.partner)
}

function toStatePair([a, b]: [ParticleRecord, ParticleRecord]): StatePair {
  const particle = (record: ParticleRecord) => ({
    id: record.id,
    state: record.state,
    measurement_axis: record.measurement_axis,
    last_measured: record.last_measured,
  })
  return { particle_type: a.particle_type, entanglement_mode: a.entanglement_mode, created_at: a.created_at, particles: [particle(a), particle(b)] }
}

function fromStatePair(pair: StatePair): ParticleRecord[] {
  const [a, b] = newPair({ ids: [pair.particles[0].id, pair.particles[1].id], type: pair.particle_type, mode: pair.entanglement_mode, createdAt: iso(pair.created_at) })
  const records: ParticleRecord[] = [a, b]
  pair.particles.forEach((particle, index) => {
    const record = records[index]!
    record.state = particle.state
    record.measurement_axis = particle.measurement_axis
    record.last_measured = particle.last_measured === null ? null : iso(particle.last_measured)
  })
  return records
}

/** Timestamps are stored in one form, `2026-01-01T00:00:00.000Z`. */
function iso(instant: string): string {
  return new Date(instant).toISOString()
}
