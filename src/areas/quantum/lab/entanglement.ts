import { type Axis, cosBetween } from './axes.js'

/** What a pair is entangled in (D16). */
export type EntanglementMode = 'spin' | 'polarization'

/** Outcomes of a measurement (D17): the first of each pair is "+", the second "−". */
export const OUTCOMES = {
  spin: ['spin_up', 'spin_down'],
  polarization: ['horizontal', 'vertical'],
} as const satisfies Record<EntanglementMode, readonly [string, string]>

export type Outcome = (typeof OUTCOMES)[EntanglementMode][number]

/** One particle of a pair: still in the pair's joint state, or with a definite outcome along an axis. */
export type ParticleState = { state: 'superposition' } | { state: Outcome; axis: Axis }

/** A particle after a measurement: always definite. */
export type DefiniteState = { state: Outcome; axis: Axis }

export interface Measurement {
  /** The measured particle afterwards; its `state` is the result. */
  measured: DefiniteState
  /** The partner afterwards: collapsed by this measurement, or untouched. */
  partner: DefiniteState
  /** `true` when this was the pair's first measurement, which collapsed the partner. */
  partnerCollapsed: boolean
}

/** The other outcome of the same mode: `spin_up` ↔ `spin_down`, `horizontal` ↔ `vertical`. */
export function opposite(outcome: Outcome): Outcome {
  switch (outcome) {
    case 'spin_up':
      return 'spin_down'
    case 'spin_down':
      return 'spin_up'
    case 'horizontal':
      return 'vertical'
    case 'vertical':
      return 'horizontal'
  }
}

/**
 * Probability that a particle with a definite outcome along `from` gives the
 * same outcome again along `to` (D17): cos²(θ/2) for spin (a spin-½ state on
 * the Bloch sphere), cos²(θ) for polarization (Malus's law), θ being the
 * angle between the two axes.
 *
 * @example
 * sameOutcomeProbability('spin', zAxis, xAxis) // 0.5
 */
export function sameOutcomeProbability(mode: EntanglementMode, from: Axis, to: Axis): number {
  const cos = cosBetween(from, to)
  return mode === 'spin' ? (1 + cos) / 2 : cos * cos
}

/**
 * Measures one particle of a pair along `axis` (D17). The pair is one
 * two-particle state, not two coins:
 *
 * - First measurement of either particle (both in superposition, the spin
 *   singlet or the anti-correlated polarization state): each outcome has
 *   probability ½, and the partner collapses to the opposite outcome along
 *   the same axis.
 * - Later measurement (the particle has a definite outcome along some axis):
 *   the same outcome with `sameOutcomeProbability`, else the other one; the
 *   partner is not disturbed, because the entanglement was used up.
 *
 * So E(a, b) = −cos θ for spin and −cos 2θ for polarization, and a CHSH
 * experiment reaches |S| = 2√2. Exactly one draw from `random` per call, so
 * the seeded source stays in step however the pair was measured (D24).
 *
 * @example
 * const first = measure('spin', { state: 'superposition' }, { state: 'superposition' }, zAxis, world.random.next)
 * first.partner.state === opposite(first.measured.state) // always
 */
export function measure(mode: EntanglementMode, particle: ParticleState, partner: ParticleState, axis: Axis, random: () => number): Measurement {
  const draw = random()
  if (particle.state === 'superposition') {
    if (partner.state !== 'superposition') throw new Error('Inconsistent pair: one particle is in superposition, its partner is not.')
    const [plus, minus] = OUTCOMES[mode]
    const result: Outcome = draw < 0.5 ? plus : minus
    return { measured: { state: result, axis }, partner: { state: opposite(result), axis }, partnerCollapsed: true }
  }
  if (partner.state === 'superposition') throw new Error('Inconsistent pair: one particle is collapsed, its partner is in superposition.')
  const same = draw < sameOutcomeProbability(mode, particle.axis, axis)
  return { measured: { state: same ? particle.state : opposite(particle.state), axis }, partner, partnerCollapsed: false }
}
