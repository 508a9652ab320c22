import type * as z from 'zod'
import type { RecordedSection, SectionRecording } from '../../world/recording.js'
import { type EntanglementMode, type Outcome, OUTCOMES, opposite } from './lab/entanglement.js'
import { FIXED_ID } from './lab/particle-ids.js'
import { type quantumScenario, scenarioPair } from './schemas.js'

/** Area C's scenario section. */
export const QUANTUM_SECTION = 'quantum'
/** The collection its answers' particles are recorded into, by particle id. */
export const RECORDED_PARTICLES = 'particles'
/** Prefix of the settings marking a particle a 404 showed missing (`missing:<id>`). */
export const SHOWN_MISSING = 'missing:'
/** The platform settings an answer can show. */
const PLATFORM_KEYS = ['status', 'base_load_percentage', 'retry_after_seconds'] as const

type Fields = Readonly<Record<string, unknown>>
type ScenarioPair = z.input<typeof scenarioPair>
type Measured = NonNullable<ScenarioPair['measured']>

/**
 * The mode an outcome belongs to.
 *
 * @example
 * modeOf('vertical') // 'polarization'
 */
export function modeOf(outcome: Outcome): EntanglementMode {
  return (OUTCOMES.spin as readonly string[]).includes(outcome) ? 'spin' : 'polarization'
}

const ALL_OUTCOMES: readonly unknown[] = [...OUTCOMES.spin, ...OUTCOMES.polarization]

function isOutcome(value: unknown): value is Outcome {
  return ALL_OUTCOMES.includes(value)
}

/**
 * The `quantum` section of a recorded scenario: every pair its answers
 * showed a particle of, with fixed ids, type, creation time and state, so
 * reading a recorded particle answers what the backend answered; the
 * platform settings the traffic showed over the start scenario's; nothing
 * generated. A pair is never half-invented: a particle read alone brings its
 * partner (its id is in `entangled_with`) in the state the area's rules give
 * it, superposition with it or, once collapsed, the opposite outcome along the
 * same axis at the same time (D17); both particles seen with other states
 * (one measured again since) keep each their own (`measured.remeasured`).
 * Left out, with why: a pair whose type and creation no answer showed (only
 * measured), whose partner answered 404, or whose particles disagree.
 *
 * @example
 * recordedPairs.scenario(recorded, { platform: { retry_after_seconds: 30 } }).scenario
 * // { platform: { retry_after_seconds: 30, status: 'operational' }, pairs: [{ particle_type: 'electron', particle_ids: ['qp_…', 'qp_…'], … }] }
 */
export const recordedPairs: SectionRecording<z.input<typeof quantumScenario>> = {
  key: QUANTUM_SECTION,
  scenario({ collections, settings }, base) {
    const particles = collections.get(RECORDED_PARTICLES) ?? new Map<string, Fields>()
    const pairs: ScenarioPair[] = []
    const left: string[] = []
    const placed = new Set<string>()
    for (const [id, fields] of particles) {
      if (placed.has(id)) continue
      placed.add(id)
      const built = buildPair(id, fields, particles, placed, settings)
      if ('why' in built) left.push(`${RECORDED_PARTICLES}/${id}: ${built.why}`)
      else pairs.push(built.pair)
    }
    const platform: Record<string, unknown> = { ...(base as { platform?: object } | undefined)?.platform }
    for (const key of PLATFORM_KEYS) if (settings.has(key)) platform[key] = settings.get(key)
    return { scenario: { platform, pairs }, left }
  },
}

/** The pair of particle `id`: its partner from the records, or from the rules when only `id` was seen. */
function buildPair(
  id: string,
  fields: Fields,
  particles: ReadonlyMap<string, Fields>,
  placed: Set<string>,
  settings: RecordedSection['settings'],
): { pair: ScenarioPair } | { why: string } {
  const partnerId = fields.partner_id
  if (typeof partnerId !== 'string') return { why: 'no answer showed its partner' }
  if (placed.has(partnerId)) return { why: `its partner ${partnerId} is in another pair` }
  placed.add(partnerId)
  const partner = particles.get(partnerId)
  if (partner === undefined && settings.get(`${SHOWN_MISSING}${partnerId}`) === true) return { why: `its partner ${partnerId} answered 404, and a pair is never half-invented` }
  if (partner?.partner_id !== undefined && partner.partner_id !== id) return { why: `its partner ${partnerId} is entangled with ${String(partner.partner_id)}` }
  // Which particle is `a` only entangle answers show; otherwise the one seen first.
  const swap = fields.role === 'b' || partner?.role === 'a'
  const [a, b] = swap ? [partner ?? {}, fields] : [fields, partner ?? {}]
  const ids: [string, string] = swap ? [partnerId, id] : [id, partnerId]
  const shared = (key: string) => a[key] ?? b[key]
  const type = shared('particle_type')
  const createdAt = shared('created_at')
  if (type === undefined || createdAt === undefined) return { why: 'no answer showed its particle type and creation time (it was only measured)' }
  const unfixable = ids.find((particle) => !FIXED_ID.test(particle))
  if (unfixable !== undefined) return { why: `"${unfixable}" is not an id a scenario can fix` }
  const measured = measurement(a, b)
  const pair = { particle_type: type, entanglement_mode: shared('entanglement_mode'), particle_ids: ids, created_at: createdAt, ...(measured ? { measured } : {}) }
  const checked = scenarioPair.safeParse(pair)
  if (!checked.success) return { why: `the answers do not make a pair a scenario can hold (${checked.error.issues[0]?.message ?? 'invalid'})` }
  return { pair: pair as ScenarioPair }
}

/**
 * The pair's measurements as a scenario says them: none while in
 * superposition (a stale superposition loses to a collapse: a pair never goes
 * back); else the first measurement is the collapsed particle whose time is
 * known (`a` first), and the other keeps its own outcome when it is not the
 * one that measurement left it (it was measured again since).
 */
function measurement(a: Fields, b: Fields): Measured | undefined {
  const collapsed = { a: isOutcome(a.state), b: isOutcome(b.state) }
  if (!collapsed.a && !collapsed.b) return undefined
  const timed = (fields: Fields) => typeof fields.last_measured === 'string'
  const role = collapsed.a && (timed(a) || !(collapsed.b && timed(b))) ? 'a' : 'b'
  const [first, other] = role === 'a' ? [a, b] : [b, a]
  const measured: Measured = { particle: role, axis: first.measurement_axis as Measured['axis'], result: first.state as Outcome, ...at(first) }
  if (!isOutcome(other.state)) return measured
  const asLeft =
    other.state === opposite(first.state as Outcome) && other.measurement_axis === first.measurement_axis && (!timed(other) || other.last_measured === first.last_measured)
  if (asLeft) return measured
  const later = { axis: other.measurement_axis as Measured['axis'], result: other.state, ...at(other) }
  return { ...measured, remeasured: role === 'a' ? { b: later } : { a: later } }
}

/** `at` when the particle's last measurement time was shown; else the scenario's default applies. */
function at(fields: Fields): { at?: string } {
  return typeof fields.last_measured === 'string' ? { at: fields.last_measured } : {}
}
