import { parseBody } from '../../kernel/json-body.js'
import { json } from '../../kernel/json-response.js'
import type { RouteDefinition } from '../../kernel/route.js'
import type { World } from '../../world/world.js'
import { parseAxis } from './axes.js'
import type { ParticleLab } from './particle-lab.js'
import type { Platform } from './platform.js'
import { entangleBody, measureBody } from './schemas.js'
import { toMeasurementView, toPairView, toParticleView } from './views.js'

/** Area C: entangled particles under `/v1` (D16–D18). */
export function quantumRoutes(world: World, lab: ParticleLab, platform: Platform): RouteDefinition[] {
  const limit = { limit: world.limits.bodyBytes }
  const now = () => world.clock.now().getTime()

  return [
    {
      method: 'POST',
      path: '/v1/entangle',
      summary: 'Create an entangled pair, both particles in superposition (D16)',
      async handle({ request, url }) {
        platform.assertAvailable()
        const body = await parseBody(request, entangleBody, limit)
        const pair = await lab.entangle(body.particle_type, body.entanglement_mode)
        platform.record(now())
        return json(toPairView(pair), 201, { location: url.pathname.replace(/\/entangle$/, `/particles/${pair[0].id}`) })
      },
    },
    {
      method: 'GET',
      path: '/v1/particles/{particle_id}',
      summary: "Read a particle's state (404 with particle_id if unknown)",
      handle({ params }) {
        platform.assertAvailable()
        return json(toParticleView(lab.require(params.particle_id!)))
      },
    },
    {
      method: 'POST',
      path: '/v1/measure',
      summary: 'Measure a particle along an axis; the first measurement collapses both (D17)',
      async handle({ request }) {
        platform.assertAvailable()
        const body = await parseBody(request, measureBody, limit)
        const measured = lab.measure(body.particle_id, parseAxis(body.measurement_axis)!)
        platform.record(now())
        return json(toMeasurementView(measured))
      },
    },
    {
      method: 'GET',
      path: '/v1/status',
      summary: 'Platform status and load (D18)',
      handle() {
        const at = world.clock.now()
        return json({ status: platform.status, timestamp: at.toISOString(), load_percentage: platform.loadPercentage(at.getTime()) })
      },
    },
  ]
}
