import * as z from 'zod'
import { isoTimestamp } from '../../kernel/time/iso-timestamp.js'
import { ACCEPTED_AXES, ANGLE_PATTERN, DEFAULT_AXIS, NAMED_AXES, parseAxis } from './lab/axes.js'
import { OUTCOMES } from './lab/entanglement.js'
import { FIXED_ID } from './lab/particle-ids.js'

/** Particle types (D16). */
export const PARTICLE_TYPES = ['photon', 'electron', 'positron', 'proton', 'neutron'] as const
export const particleType = z.enum(PARTICLE_TYPES, `must be one of ${PARTICLE_TYPES.join(', ')}`)
export type ParticleType = z.infer<typeof particleType>

/** Entanglement modes (D16); `spin` is the default. */
export const ENTANGLEMENT_MODES = ['spin', 'polarization'] as const
export const entanglementMode = z.enum(ENTANGLEMENT_MODES, `must be one of ${ENTANGLEMENT_MODES.join(', ')}`)
const DEFAULT_MODE = 'spin'

const ALL_OUTCOMES = [...OUTCOMES.spin, ...OUTCOMES.polarization] as const
export const outcome = z.enum(ALL_OUTCOMES, `must be one of ${ALL_OUTCOMES.join(', ')}`)

/** `superposition` until the pair is first measured, then an outcome (spec: "collapsed, example value spin_up"). */
export const particleStateValue = z.enum(['superposition', ...ALL_OUTCOMES])
export type ParticleStateValue = z.infer<typeof particleStateValue>

/** Platform status (D18). */
export const platformStatus = z.enum(['operational', 'degraded', 'maintenance'], 'must be one of operational, degraded, maintenance')
export type PlatformStatus = z.infer<typeof platformStatus>

const AXIS = `must be ${ACCEPTED_AXES}`

/**
 * An angle in degrees, `22.5deg`: typed `${number}deg`, and held to
 * `ANGLE_PATTERN`, which the document shows (the range included) in place of
 * the template's own pattern.
 */
const angleAxis = z.templateLiteral([z.number(), 'deg']).check(z.regex(ANGLE_PATTERN, AXIS)).meta({ pattern: ANGLE_PATTERN.source })

/**
 * A measurement axis (D17): a named axis or an angle, in the document an enum
 * beside the angle's pattern, which together are the whole rule; in TypeScript
 * `'x-axis' | 'y-axis' | 'z-axis' | `${number}deg``.
 */
export const axisText = z.union([z.enum(NAMED_AXES, AXIS), angleAxis], AXIS)

/** A measurement axis as a request gives it, normalised to its canonical name (`-0deg` → `0deg`, `22.50deg` → `22.5deg`). */
export const axisName = axisText.transform((text) => parseAxis(text)!.name).pipe(axisText)

/** A particle id fixed by a scenario or state document. */
export const fixedParticleId = z.string().regex(FIXED_ID, 'must be 1 to 128 URL-safe characters (letters, digits, ".", "_", "~", "-"), starting with a letter or digit')

/** `POST /v1/entangle` body (D16). */
export const entangleBody = z.object({
  particle_type: particleType,
  entanglement_mode: entanglementMode.default(DEFAULT_MODE),
})

/** `POST /v1/measure` body (D17). */
export const measureBody = z.object({
  particle_id: z.string('must be a string: the id of a particle').min(1, 'must be the id of a particle'),
  measurement_axis: axisName.default(DEFAULT_AXIS),
})

/** `{particle_id}` in the particle path. */
export const particleParams = z.object({ particle_id: z.string().min(1).describe('Id of a particle, as `POST /v1/entangle` answered it.') })

/** Extra field of Area C's 404 (D9): the particle id looked for. */
export const unknownParticleExtra = z.object({ particle_id: z.string() })

/** Extra field of the maintenance 503 (D18), which injected 503 faults carry too: the seconds of `Retry-After`. */
export const retryAfterExtra = z.object({ retry_after: z.int().min(0) })

/** One stored particle. Its pair is itself and its partner (`partner_id`); `role` says which of the two was `particle_id_a`. */
export const particleRecord = z.object({
  id: z.string(),
  partner_id: z.string(),
  role: z.enum(['a', 'b']),
  particle_type: particleType,
  entanglement_mode: entanglementMode,
  created_at: z.string(),
  state: particleStateValue,
  /** Axis along which `state` holds; `null` in superposition. */
  measurement_axis: axisText.nullable(),
  last_measured: z.string().nullable(),
})
export type ParticleRecord = z.infer<typeof particleRecord>

/** The platform part of the `quantum` section (D18), in scenarios and state alike. */
export const platformSettings = z.strictObject({
  status: platformStatus.default('operational').describe('GET /v1/status reports it; "maintenance" answers 503 on the other endpoints.'),
  base_load_percentage: z.number().min(0).max(100).default(0).describe('Load always present; activity adds to it (capped at 100).'),
  retry_after_seconds: z.int().min(1).max(86_400).default(120).describe('Retry-After of the 503 answers during maintenance.'),
})
export type PlatformSettings = z.infer<typeof platformSettings>

const pairCounts = z.strictObject({
  superposition: z.int().min(0).max(5000).default(0).describe('Pairs never measured.'),
  collapsed: z.int().min(0).max(5000).default(0).describe('Pairs with one particle measured (seeded axis and result).'),
})

/** A particle's own latest measurement after its pair's first one (D17: a later measurement leaves the partner alone). */
const laterMeasurement = z.strictObject({
  axis: axisName.default(DEFAULT_AXIS).describe(`Default ${DEFAULT_AXIS}. Accepted: ${ACCEPTED_AXES}.`),
  result: outcome.describe("The particle's outcome, of the pair's mode."),
  at: isoTimestamp.optional().describe("When; defaults to the first measurement's `at`."),
})

/** A pair spelled out in a scenario. */
export const scenarioPair = z
  .strictObject({
    particle_type: particleType.optional().describe('Default: photon for polarization, electron for spin.'),
    entanglement_mode: entanglementMode.default(DEFAULT_MODE),
    particle_ids: z.tuple([fixedParticleId, fixedParticleId]).optional().describe('Fixed ids of particles a and b; generated when omitted.'),
    created_at: isoTimestamp.optional().describe('Defaults to the simulator clock.'),
    measured: z
      .strictObject({
        particle: z.enum(['a', 'b']).default('a').describe('Which particle was measured; its partner collapsed to the opposite outcome.'),
        axis: axisName.default(DEFAULT_AXIS).describe(`Default ${DEFAULT_AXIS}. Accepted: ${ACCEPTED_AXES}.`),
        result: outcome.optional().describe('Outcome of the measured particle; drawn 50/50 from the seed when omitted.'),
        at: isoTimestamp.optional().describe('When; defaults to created_at.'),
        remeasured: z
          .strictObject({ a: laterMeasurement.optional(), b: laterMeasurement.optional() })
          .optional()
          .describe("Particles measured again since, by role: each one's latest outcome, in place of what the first measurement left it."),
      })
      .optional()
      .describe('Present: the pair was measured once already (collapsed).'),
  })
  .superRefine((pair, ctx) => {
    const measured = pair.measured
    if (measured?.result !== undefined) checkOutcome(pair.entanglement_mode, measured.result, ['measured', 'result'], ctx)
    for (const role of ['a', 'b'] as const) {
      const later = measured?.remeasured?.[role]
      if (later) checkOutcome(pair.entanglement_mode, later.result, ['measured', 'remeasured', role, 'result'], ctx)
    }
  })
  .meta({
    description:
      "`measured.result` and `measured.remeasured.*.result` are outcomes of the pair's mode: spin_up or spin_down in spin mode (the default), horizontal or vertical in polarization mode.",
    // The same rule for validators: one branch per mode, the default mode's also when the mode is left out.
    allOf: [{ anyOf: ENTANGLEMENT_MODES.map((mode) => inMode(mode, { measured: measuredInMode(mode) })) }],
  })

/** The `quantum` section of a scenario (Area C). */
export const quantumScenario = z
  .strictObject({
    platform: platformSettings.prefault({}),
    generate: z
      .strictObject({ spin: pairCounts.optional(), polarization: pairCounts.optional() })
      .optional()
      .describe('How many pairs to generate per mode and state (seeded types, axes and results).'),
    pairs: z
      .array(scenarioPair)
      .default([])
      .describe('Pairs listed one by one, created before the generated ones. A particle id given in `particle_ids` appears once in the whole section.'),
  })
  .superRefine((section, ctx) => {
    uniqueIds(
      section.pairs.map((pair) => pair.particle_ids ?? []),
      (index, slot) => ['pairs', index, 'particle_ids', slot],
      ctx,
    )
  })
export type QuantumScenario = z.infer<typeof quantumScenario>

/** One particle of a pair in the state document. */
export const stateParticle = z.strictObject({
  id: fixedParticleId,
  state: particleStateValue,
  measurement_axis: axisName.nullable().default(null),
  last_measured: isoTimestamp.nullable().default(null),
})

/** A pair in the state document: exactly what the simulator keeps, so restore is exact. */
export const statePair = z
  .strictObject({
    particle_type: particleType,
    entanglement_mode: entanglementMode,
    created_at: isoTimestamp,
    particles: z.tuple([stateParticle, stateParticle]).describe('Particle a (particle_id_a), then particle b.'),
  })
  .superRefine((pair, ctx) => {
    // Said in the document by the `allOf` below; checked here with a message per particle.
    const open = pair.particles.map((particle) => particle.state === 'superposition')
    if (open[0] !== open[1]) {
      ctx.addIssue({ code: 'custom', path: ['particles'], message: 'both particles are in superposition, or neither is (the first measurement collapses both)' })
    }
    pair.particles.forEach((particle, index) => {
      const path = ['particles', index]
      if (particle.state === 'superposition') {
        if (particle.measurement_axis !== null) ctx.addIssue({ code: 'custom', path: [...path, 'measurement_axis'], message: 'must be null in superposition' })
        if (particle.last_measured !== null) ctx.addIssue({ code: 'custom', path: [...path, 'last_measured'], message: 'must be null in superposition' })
        return
      }
      checkOutcome(pair.entanglement_mode, particle.state, [...path, 'state'], ctx)
      if (particle.measurement_axis === null) ctx.addIssue({ code: 'custom', path: [...path, 'measurement_axis'], message: 'is required once collapsed' })
    })
  })
  .meta({
    description:
      "Both particles in superposition (no measurement_axis, no last_measured), or both collapsed along an axis (measurement_axis given); each state is `superposition` or an outcome of the pair's mode.",
    allOf: [
      {
        anyOf: [
          { properties: { particles: { items: { properties: { state: { const: 'superposition' }, measurement_axis: { type: 'null' }, last_measured: { type: 'null' } } } } } },
          {
            properties: {
              particles: { items: { properties: { state: { not: { const: 'superposition' } }, measurement_axis: { type: 'string' } }, required: ['measurement_axis'] } },
            },
          },
        ],
      },
      { anyOf: ENTANGLEMENT_MODES.map((mode) => inMode(mode, { particles: { items: { properties: { state: { enum: ['superposition', ...OUTCOMES[mode]] } } } } }, true)) },
    ],
  })
export type StatePair = z.infer<typeof statePair>

/** The `quantum` section of the world state (Area C). */
export const quantumState = z
  .strictObject({
    platform: platformSettings.prefault({}),
    pairs: z.array(statePair).default([]).describe('Every particle id appears once in the whole section.'),
    recent_operations: z.array(isoTimestamp).default([]).describe('Instants of the latest entangle and measure operations, from which load_percentage is derived.'),
  })
  .superRefine((section, ctx) => {
    uniqueIds(
      section.pairs.map((pair) => pair.particles.map((particle) => particle.id)),
      (index, slot) => ['pairs', index, 'particles', slot, 'id'],
      ctx,
    )
  })
export type QuantumState = z.infer<typeof quantumState>

/**
 * One branch of a rule per mode, as JSON Schema: `properties` hold when the
 * pair is in `mode`. Unless `required`, the default mode's branch also holds
 * when the mode is left out, as the schema defaults it.
 */
function inMode(mode: (typeof ENTANGLEMENT_MODES)[number], properties: Record<string, unknown>, required = false): Record<string, unknown> {
  const named = required || mode !== DEFAULT_MODE
  return { properties: { entanglement_mode: { const: mode }, ...properties }, ...(named ? { required: ['entanglement_mode'] } : {}) }
}

/** The JSON Schema of `measured` in one mode: every result given is an outcome of that mode. */
function measuredInMode(mode: (typeof ENTANGLEMENT_MODES)[number]): Record<string, unknown> {
  const result = { properties: { result: { enum: [...OUTCOMES[mode]] } } }
  return { properties: { ...result.properties, remeasured: { properties: { a: result, b: result } } } }
}

function checkOutcome(mode: z.infer<typeof entanglementMode>, value: string, path: Array<string | number>, ctx: z.RefinementCtx): void {
  if (!(OUTCOMES[mode] as readonly string[]).includes(value)) {
    ctx.addIssue({ code: 'custom', path, message: `must be ${OUTCOMES[mode].join(' or ')} in ${mode} mode` })
  }
}

function uniqueIds(pairs: string[][], path: (index: number, slot: number) => Array<string | number>, ctx: z.RefinementCtx): void {
  const seen = new Set<string>()
  pairs.forEach((ids, index) =>
    ids.forEach((id, slot) => {
      if (seen.has(id)) ctx.addIssue({ code: 'custom', path: path(index, slot), message: `duplicate particle id "${id}"` })
      seen.add(id)
    }),
  )
}
