import type * as z from 'zod'
import { type AreaRecording, byStatus, nothingShown, type Observation, type ObserveResult, type RecordedExchange } from '../../world/recording.js'
import { modeOf, QUANTUM_SECTION, RECORDED_PARTICLES, recordedPairs, SHOWN_MISSING } from './recorded-pairs.js'
import type { measurementView, pairView, particleView, platformStatusView } from './view-schemas.js'

/** What a particle's answer shows of it, as kept in the `particles` collection (a subset of the stored record). */
type ParticleFields = Record<string, unknown>

const upsert = (id: string, fields: ParticleFields): Observation => ({ kind: 'upsert', section: QUANTUM_SECTION, collection: RECORDED_PARTICLES, id, fields })
const setting = (key: string, value: unknown): Observation => ({ kind: 'setting', section: QUANTUM_SECTION, key, value })

/**
 * A 404 removes the particle, and remembers it was shown missing: a partner
 * read later must not bring it back (see recorded-pairs). An answer showing
 * it again puts it back in the collection, which wins over the mark.
 */
function missing(id: unknown): ObserveResult {
  if (typeof id !== 'string' || id === '') return { unmapped: 'the 404 names no particle' }
  return [{ kind: 'remove', section: QUANTUM_SECTION, collection: RECORDED_PARTICLES, id }, setting(`${SHOWN_MISSING}${id}`, true)]
}

/**
 * A 503 shows no particle, but its `retry_after` is the platform's
 * `Retry-After` (the maintenance answers' setting; an injected fault's
 * value is harmless, as the setting acts only under maintenance).
 */
function unavailable({ response }: RecordedExchange): ObserveResult {
  const seconds = (response as { retry_after?: unknown } | undefined)?.retry_after
  if (!Number.isInteger(seconds) || (seconds as number) < 1 || (seconds as number) > 86_400) return { unmapped: 'a 503 without a usable retry_after shows nothing' }
  return [setting('retry_after_seconds', seconds)]
}

/**
 * Area C's answers, read into particles (section `quantum`, collection
 * `particles`) and platform settings:
 *
 * - `POST /v1/entangle` 201: both particles, which is `a` and which `b`, in superposition.
 * - `GET /v1/particles/{id}` 200: the particle as read, its partner's id; 404: gone.
 * - `POST /v1/measure` 200: both particles' outcomes and axes; the partner's
 *   `last_measured` only when this measurement collapsed it; 404: gone.
 * - `GET /v1/status` 200: the platform `status`, and its `load_percentage` as
 *   the base load, so the replay reports the same load at rest (its own
 *   entangle and measure requests add to it, as they did upstream). The
 *   `timestamp` is the clock's, not a setting.
 * - A 503's `retry_after`: the platform's `retry_after_seconds`.
 *
 * @example
 * createSimulator({ areas: ['quantum'] }) // quantumArea.recording === quantumRecording
 * quantumRecording.observe.getParticle!(exchange) // [{ kind: 'upsert', collection: 'particles', id: 'qp_…', fields: { state: 'spin_up', … } }, …]
 */
/** Other statuses than the ones named show nothing the scenario keeps, but a 503 shows the platform's `Retry-After`. */
function answered(handlers: Partial<Record<number, (exchange: RecordedExchange) => ObserveResult>>) {
  return byStatus(handlers, (exchange) => (exchange.status === 503 ? unavailable(exchange) : nothingShown(exchange)))
}

export const quantumRecording: AreaRecording = {
  sections: [QUANTUM_SECTION],
  observe: {
    entangle: answered({
      201: ({ response }) => {
        const pair = response as z.infer<typeof pairView>
        const common = {
          particle_type: pair.particle_type,
          entanglement_mode: pair.entanglement_mode,
          created_at: pair.created_at,
          state: 'superposition',
          measurement_axis: null,
          last_measured: null,
        }
        return [
          upsert(pair.particle_id_a, { ...common, partner_id: pair.particle_id_b, role: 'a' }),
          upsert(pair.particle_id_b, { ...common, partner_id: pair.particle_id_a, role: 'b' }),
        ]
      },
    }),
    getParticle: answered({
      200: ({ response }) => {
        const particle = response as z.infer<typeof particleView>
        const fields: ParticleFields = {
          partner_id: particle.entangled_with,
          particle_type: particle.particle_type,
          entanglement_mode: particle.entanglement_mode,
          created_at: particle.created_at,
          state: particle.state,
          measurement_axis: particle.measurement_axis,
          last_measured: particle.last_measured,
        }
        return [upsert(particle.particle_id, fields)]
      },
      404: ({ params }) => missing(params.particle_id),
    }),
    measure: answered({
      200: ({ response }) => {
        const measured = response as z.infer<typeof measurementView>
        const mode = modeOf(measured.result)
        const at = measured.measured_at
        return [
          upsert(measured.measured_particle_id, {
            partner_id: measured.correlated_particle_id,
            entanglement_mode: mode,
            state: measured.result,
            measurement_axis: measured.measurement_axis,
            last_measured: at,
          }),
          upsert(measured.correlated_particle_id, {
            partner_id: measured.measured_particle_id,
            entanglement_mode: mode,
            state: measured.correlated_result,
            measurement_axis: measured.correlated_axis,
            // After a later measurement the partner was not touched: when it was last measured is not shown.
            ...(measured.partner_collapsed ? { last_measured: at } : {}),
          }),
        ]
      },
      404: ({ request }) => missing((request as { particle_id?: unknown } | undefined)?.particle_id),
    }),
    getStatus: answered({
      200: ({ response }) => {
        const status = response as z.infer<typeof platformStatusView>
        return [setting('status', status.status), setting('base_load_percentage', status.load_percentage)]
      },
    }),
  },
  section: recordedPairs,
}
