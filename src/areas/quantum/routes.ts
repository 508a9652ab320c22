import type * as z from 'zod'
import { json } from '../../kernel/http/json/json-response.js'
import { defineRoute } from '../../kernel/routing/route.js'
import type { World } from '../../world/world.js'
import { parseAxis } from './lab/axes.js'
import type { ParticleLab } from './lab/particle-lab.js'
import type { Platform } from './platform.js'
import { entangleBody, measureBody, particleParams, retryAfterExtra, unknownParticleExtra } from './schemas.js'
import { measurementView, pairView, particleView, platformStatusView } from './view-schemas.js'
import { toMeasurementView, toPairView, toParticleView } from './views.js'

/** What Area C's routes work on. */
export interface QuantumRouteContext {
  world: World
  lab: ParticleLab
  platform: Platform
}

/**
 * Area C: entangled particles under `/v1` (D16–D18).
 * Its return type is inferred, not declared: the operation types (operations.ts) are read from it.
 */
export function quantumRoutes({ world, lab, platform }: QuantumRouteContext) {
  const now = () => world.clock.nowMs()
  // Documented on each route that calls `platform.assertAvailable()`; injected 503s carry `retry_after` too.
  const maintenance = {
    code: 'service_unavailable',
    extra: retryAfterExtra,
    description: 'The platform is under maintenance (D18), or an injected fault; retry after `Retry-After` seconds, also in `retry_after`.',
  } as const
  const unknownParticle = { code: 'not_found', extra: unknownParticleExtra, description: 'No particle with that id; `particle_id` repeats it (D9).' } as const
  const someParticle = (collapsed: boolean) => lab.pairs().find(([a]) => (a.state !== 'superposition') === collapsed)![0].id

  return [
    defineRoute({
      method: 'POST',
      path: '/v1/entangle',
      operationId: 'entangle',
      summary: 'Create an entangled pair',
      description:
        "Both particles of the new pair start in `superposition`, their properties undetermined. `particle_type` is one of the listed types; `entanglement_mode` is `spin` (the default) or `polarization`. `Location` is the first particle's path. Under maintenance, a 503.",
      body: entangleBody,
      responses: { 201: { body: pairView, headers: ['Location'] } },
      errors: [maintenance],
      examples: () => [
        { summary: 'A photon pair entangled in polarization', body: { particle_type: 'photon', entanglement_mode: 'polarization' } },
        { name: 'unsupported', summary: 'An unknown particle type', body: { particle_type: 'quark' } },
      ],
      // Before the body is read: under maintenance every request is 503, whatever its body.
      guard: () => platform.assertAvailable(),
      async handle({ url, body }) {
        const pair = await lab.entangle(body.particle_type, body.entanglement_mode)
        platform.record(now())
        return json(toPairView(pair) satisfies z.infer<typeof pairView>, 201, { location: url.pathname.replace(/\/entangle$/, `/particles/${pair[0].id}`) })
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/particles/{particle_id}',
      operationId: 'getParticle',
      summary: 'Read a particle',
      description:
        'The particle, its partner (`entangled_with`) and its `state`: `superposition` until its pair is first measured, then the outcome along `measurement_axis`. An unknown id is a 404 with `particle_id`. Under maintenance, a 503.',
      params: particleParams,
      responses: { 200: { body: particleView } },
      errors: [unknownParticle, maintenance],
      examples: () => [
        { summary: 'A particle in superposition', params: { particle_id: someParticle(false) } },
        { name: 'collapsed', summary: 'A particle of a measured pair', params: { particle_id: someParticle(true) } },
        { name: 'unknown', params: { particle_id: 'no-such-particle' } },
      ],
      handle({ params }) {
        platform.assertAvailable()
        return json(toParticleView(lab.require(params.particle_id)))
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/measure',
      operationId: 'measure',
      summary: 'Measure a particle',
      description:
        'The first measurement of either particle gives each outcome with probability 1/2 and collapses its partner to the opposite outcome along the same axis. A later measurement of a collapsed particle along another axis repeats its outcome with probability cos²(θ/2) for spin, cos²(θ) for polarization, and leaves the partner alone. Axes: `x-axis`, `y-axis`, `z-axis` (the default) or an angle in the x-z plane from `-360deg` to `360deg`, such as `22.5deg`. Under maintenance, a 503.',
      body: measureBody,
      responses: { 200: { body: measurementView } },
      errors: [unknownParticle, maintenance],
      examples: () => [
        { summary: 'The first measurement of a pair', body: { particle_id: someParticle(false), measurement_axis: 'x-axis' } },
        { name: 'again', summary: 'A collapsed particle along another axis: the partner is not disturbed', body: { particle_id: someParticle(true), measurement_axis: '22.5deg' } },
        { name: 'unknown', body: { particle_id: 'no-such-particle' } },
      ],
      guard: () => platform.assertAvailable(),
      handle({ body }) {
        const measured = lab.measure(body.particle_id, parseAxis(body.measurement_axis)!)
        platform.record(now())
        return json(toMeasurementView(measured))
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/status',
      operationId: 'getStatus',
      summary: 'Read the platform status',
      description:
        '`status` is `operational`, `degraded` or `maintenance`; `load_percentage` (0 to 100) follows the entangle and measure requests of the last 60 s of the simulator clock. Answered during maintenance too, when the other operations answer 503.',
      responses: { 200: { body: platformStatusView } },
      examples: () => [{}],
      handle() {
        const at = world.clock.now()
        return json({ status: platform.status, timestamp: at.toISOString(), load_percentage: platform.loadPercentage(at.getTime()) } satisfies z.infer<typeof platformStatusView>)
      },
    }),
  ]
}
