import { check } from '../check.js'
import type { CheckContext } from '../check-context.js'
import { expectConforms, expectEqual, expectError, expectStatus, expectThat, objectBody } from '../expect.js'
import { setupBody } from '../setup.js'

const STATUS = 'GET /v1/status'
const ENTANGLE = 'POST /v1/entangle'
const READ = 'GET /v1/particles/{particle_id}'
const MEASURE = 'POST /v1/measure'

/** The outcome opposite to each (D17): the partner always collapses to it on the same axis. */
const OPPOSITE: Record<string, string> = { spin_up: 'spin_down', spin_down: 'spin_up', horizontal: 'vertical', vertical: 'horizontal' }

const quantum = (ctx: CheckContext) => ctx.probe('quantum')
const particlePath = (id: string) => `/v1/particles/${encodeURIComponent(id)}`

/** A new pair (any 2xx), for the checks that read or measure one. */
async function newPair(ctx: CheckContext, mode: 'spin' | 'polarization' = 'spin'): Promise<{ a: string; b: string }> {
  const body = setupBody(await quantum(ctx).send('POST', '/v1/entangle', { json: { particle_type: 'electron', entanglement_mode: mode } }), 'create a pair')
  ctx.leaveBehind('entangled pairs (Area C has no delete)')
  return { a: String(body.particle_id_a), b: String(body.particle_id_b) }
}

/** Area C: pairs, particles, measurement (D16, D17, D18). */
export const quantumChecks = [
  check({
    name: 'quantum.status',
    area: 'quantum',
    operation: STATUS,
    title: 'platform status: 200, documented shape, load within 0..100 (D18)',
    writes: false,
    async run(ctx) {
      expectConforms(ctx, 'quantum', STATUS, await quantum(ctx).send('GET', '/v1/status'), 200)
    },
  }),
  check({
    name: 'quantum.entangle',
    area: 'quantum',
    operation: ENTANGLE,
    title: 'creates a pair: 201, documented shape, two different ids (D16)',
    writes: true,
    async run(ctx) {
      const created = await quantum(ctx).send('POST', '/v1/entangle', { json: { particle_type: 'photon' } })
      ctx.leaveBehind('entangled pairs (Area C has no delete)')
      expectConforms(ctx, 'quantum', ENTANGLE, created, 201)
      const body = objectBody(created)
      expectThat(body.particle_id_a !== body.particle_id_b, 'both particles have the same id', 'two different ids', String(body.particle_id_a))
    },
  }),
  check({
    name: 'quantum.entangle.validation',
    area: 'quantum',
    operation: ENTANGLE,
    title: 'an unknown particle type or mode is 400 validation_failed (D16)',
    writes: true,
    async run(ctx) {
      for (const json of [{ particle_type: 'banana' }, { particle_type: 'photon', entanglement_mode: 'telepathy' }, {}]) {
        expectError(ctx, 'quantum', ENTANGLE, await quantum(ctx).send('POST', '/v1/entangle', { json }), 400, 'validation_failed')
      }
    },
  }),
  check({
    name: 'quantum.particle.read',
    area: 'quantum',
    operation: READ,
    title: 'both particles read in superposition, each entangled with the other (D16)',
    writes: true,
    async run(ctx) {
      const pair = await newPair(ctx)
      for (const [id, partner] of [
        [pair.a, pair.b],
        [pair.b, pair.a],
      ] as const) {
        const read = await quantum(ctx).send('GET', particlePath(id))
        expectConforms(ctx, 'quantum', READ, read, 200)
        const body = objectBody(read)
        expectEqual([body.particle_id, body.entangled_with, body.state], [id, partner, 'superposition'], 'particle_id, entangled_with, state')
        expectEqual(body.last_measured, null, 'last_measured before any measurement')
      }
    },
  }),
  check({
    name: 'quantum.particle.unknown',
    area: 'quantum',
    operation: READ,
    title: 'an unknown particle is 404 not_found carrying particle_id (spec errors)',
    writes: false,
    async run(ctx) {
      const id = ctx.unique('missing')
      const body = expectError(ctx, 'quantum', READ, await quantum(ctx).send('GET', particlePath(id)), 404, 'not_found')
      expectEqual(body.particle_id, id, 'particle_id of the 404')
    },
  }),
  check({
    name: 'quantum.measure',
    area: 'quantum',
    operation: MEASURE,
    title: 'measures: 200, documented shape, names the partner as the correlated particle (D17)',
    writes: true,
    async run(ctx) {
      const pair = await newPair(ctx)
      const measured = await quantum(ctx).send('POST', '/v1/measure', { json: { particle_id: pair.a, measurement_axis: 'z-axis' } })
      expectConforms(ctx, 'quantum', MEASURE, measured, 200)
      const body = objectBody(measured)
      expectEqual([body.measured_particle_id, body.correlated_particle_id], [pair.a, pair.b], 'measured and correlated particle ids')
    },
  }),
  check({
    name: 'quantum.measure.partner-opposite',
    area: 'quantum',
    operation: MEASURE,
    title: 'the first measurement gives the partner the opposite outcome on the same axis, spin and polarization (D17)',
    writes: true,
    async run(ctx) {
      for (const [mode, axis] of [
        ['spin', 'z-axis'],
        ['spin', 'x-axis'],
        ['polarization', 'z-axis'],
      ] as const) {
        const pair = await newPair(ctx, mode)
        const body = setupBody(await quantum(ctx).send('POST', '/v1/measure', { json: { particle_id: pair.b, measurement_axis: axis } }), 'measure a particle')
        const result = String(body.result)
        expectThat(OPPOSITE[result] !== undefined, `result ${JSON.stringify(body.result)} is not an outcome of ${mode}`, Object.keys(OPPOSITE).join(' or '), result)
        expectEqual(body.correlated_result, OPPOSITE[result], `correlated_result when the ${mode} result on ${axis} is ${result}`)
      }
    },
  }),
  check({
    name: 'quantum.measure.collapses-both',
    area: 'quantum',
    operation: MEASURE,
    title: 'after a measurement both particles read collapsed: the result, and its opposite (spec states)',
    writes: true,
    async run(ctx) {
      const pair = await newPair(ctx)
      const body = setupBody(await quantum(ctx).send('POST', '/v1/measure', { json: { particle_id: pair.a } }), 'measure a particle')
      const result = String(body.result)
      const a = objectBody(await quantum(ctx).send('GET', particlePath(pair.a)))
      const b = objectBody(await quantum(ctx).send('GET', particlePath(pair.b)))
      expectEqual([a.state, b.state], [result, OPPOSITE[result]], 'states of the measured particle and its partner')
      expectThat(typeof a.last_measured === 'string', 'last_measured of the measured particle is not a timestamp', 'a timestamp', JSON.stringify(a.last_measured))
    },
  }),
  check({
    name: 'quantum.measure.validation',
    area: 'quantum',
    operation: MEASURE,
    title: 'an invalid axis is 400; an unknown particle is 404 with particle_id (D17)',
    writes: true,
    async run(ctx) {
      const pair = await newPair(ctx)
      expectError(
        ctx,
        'quantum',
        MEASURE,
        await quantum(ctx).send('POST', '/v1/measure', { json: { particle_id: pair.a, measurement_axis: 'sideways' } }),
        400,
        'validation_failed',
      )
      const id = ctx.unique('missing')
      const unknown = await quantum(ctx).send('POST', '/v1/measure', { json: { particle_id: id } })
      expectStatus(unknown, 404)
      expectEqual(expectError(ctx, 'quantum', MEASURE, unknown, 404, 'not_found').particle_id, id, 'particle_id of the 404')
    },
  }),
]
