import type { MeasuredPair } from './lab/particle-lab.js'
import type { ParticleRecord } from './schemas.js'

/** What `properties` shows for a quantity nobody has measured yet (D16). */
export const UNDETERMINED = 'undetermined'

/** `POST /v1/entangle` answer: the spec's message and two ids, plus what was created. */
export function toPairView([a, b]: readonly [ParticleRecord, ParticleRecord]) {
  return {
    message: `Entangled ${a.particle_type} pair created in ${a.entanglement_mode} mode; both particles are in superposition.`,
    particle_id_a: a.id,
    particle_id_b: b.id,
    particle_type: a.particle_type,
    entanglement_mode: a.entanglement_mode,
    created_at: a.created_at,
  }
}

/**
 * `GET /v1/particles/{id}` answer. `state` is `superposition` until the pair
 * is measured, then the particle's outcome (`spin_up`, `spin_down`,
 * `horizontal`, `vertical`) along `measurement_axis`. `properties` repeats it
 * under the pair's mode; the other key stays `undetermined`.
 */
export function toParticleView(particle: ParticleRecord) {
  const definite = particle.state !== 'superposition'
  const value = definite ? particle.state : UNDETERMINED
  return {
    message: definite
      ? `Particle ${particle.id} is ${particle.state} along ${particle.measurement_axis} (collapsed; entangled partner ${particle.partner_id}).`
      : `Particle ${particle.id} is in superposition, entangled with ${particle.partner_id}.`,
    particle_id: particle.id,
    entangled_with: particle.partner_id,
    state: particle.state,
    properties: {
      spin: particle.entanglement_mode === 'spin' ? value : UNDETERMINED,
      polarization: particle.entanglement_mode === 'polarization' ? value : UNDETERMINED,
    },
    last_measured: particle.last_measured,
    particle_type: particle.particle_type,
    entanglement_mode: particle.entanglement_mode,
    measurement_axis: particle.measurement_axis,
    created_at: particle.created_at,
  }
}

/**
 * `POST /v1/measure` answer. `collapsed_state` is the measured particle's new
 * `state` (equal to `result`); `correlated_result` is the partner's state:
 * the opposite outcome along the same axis after the first measurement, its
 * unchanged earlier outcome after later ones (D17: no longer entangled).
 */
export function toMeasurementView({ particle, partner, partnerCollapsed }: MeasuredPair) {
  const axis = particle.measurement_axis
  return {
    message: partnerCollapsed
      ? `Measured ${particle.id} along ${axis}: ${particle.state}. Its entangled partner ${partner.id} collapsed to ${partner.state} along the same axis.`
      : `Measured ${particle.id} along ${axis}: ${particle.state}. The pair was already collapsed, so partner ${partner.id} keeps ${partner.state} along ${partner.measurement_axis}.`,
    measured_particle_id: particle.id,
    result: particle.state,
    collapsed_state: particle.state,
    correlated_particle_id: partner.id,
    correlated_result: partner.state,
    measurement_axis: axis,
    correlated_axis: partner.measurement_axis,
    partner_collapsed: partnerCollapsed,
    measured_at: particle.last_measured,
  }
}
