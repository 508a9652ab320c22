import * as z from 'zod'
import { isoTimestamp } from '../../kernel/time/iso-timestamp.js'
import { OUTCOMES } from './lab/entanglement.js'
import { axisText, entanglementMode, outcome, particleStateValue, particleType, platformStatus } from './schemas.js'

// The bodies of Area C's answers (D16–D18), as its routes document them.

/** What `properties` shows for a quantity of the pair's mode, or `undetermined` (D16). */
const propertyValue = (mode: keyof typeof OUTCOMES) => z.enum(['undetermined', ...OUTCOMES[mode]])

/** `201` of `POST /v1/entangle`: the spec's message and ids, plus what was created. */
export const pairView = z
  .object({
    message: z.string(),
    particle_id_a: z.string(),
    particle_id_b: z.string().describe('Differs from `particle_id_a`.'),
    particle_type: particleType,
    entanglement_mode: entanglementMode,
    created_at: isoTimestamp,
  })
  .meta({ id: 'EntangledPair', description: 'A new pair, both particles in superposition (D16).' })

/** `200` of `GET /v1/particles/{particle_id}` (D16, D17). */
export const particleView = z
  .object({
    message: z.string(),
    particle_id: z.string(),
    entangled_with: z.string().describe('Id of the partner particle.'),
    state: particleStateValue.describe('`superposition` until the pair is first measured, then the outcome along `measurement_axis`.'),
    properties: z
      .object({ spin: propertyValue('spin'), polarization: propertyValue('polarization') })
      .describe("The state under the key of the pair's mode; the other key stays `undetermined`."),
    last_measured: isoTimestamp.nullable().describe('`null` until the pair is first measured.'),
    particle_type: particleType,
    entanglement_mode: entanglementMode,
    measurement_axis: axisText.nullable().describe('Axis along which `state` holds; `null` in superposition.'),
    created_at: isoTimestamp,
  })
  .meta({ id: 'Particle', description: 'A particle and its state (D16, D17).' })

/** `200` of `POST /v1/measure` (D17). */
export const measurementView = z
  .object({
    message: z.string(),
    measured_particle_id: z.string(),
    result: outcome,
    collapsed_state: outcome.describe("The measured particle's new state: equal to `result`."),
    correlated_particle_id: z.string(),
    correlated_result: outcome.describe("The partner's state: the opposite outcome after the first measurement, unchanged after later ones."),
    measurement_axis: axisText.describe('The axis measured along, normalised (`22.50deg` → `22.5deg`).'),
    correlated_axis: axisText.describe("The axis the partner's state holds along."),
    partner_collapsed: z.boolean().describe("`true` when this was the pair's first measurement, which collapsed the partner."),
    measured_at: isoTimestamp,
  })
  .meta({ id: 'Measurement', description: 'The outcome of a measurement and its effect on the partner (D17).' })

/** `200` of `GET /v1/status` (D18). */
export const platformStatusView = z
  .object({
    status: platformStatus,
    timestamp: isoTimestamp.describe('The simulator clock.'),
    load_percentage: z.number().min(0).max(100).describe('Derived from entangle and measure operations over the last minute of the simulator clock.'),
  })
  .meta({ id: 'QuantumStatus', description: "The entanglement platform's status and load (D18)." })
