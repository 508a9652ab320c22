import { ApiError, notFound } from '../kernel/api-error.js'
import { readJsonBody } from '../kernel/json-body.js'
import { json } from '../kernel/json-response.js'
import type { RouteDefinition } from '../kernel/route.js'
import type { Simulator } from './create-simulator.js'
import { ScenarioError } from './scenario-error.js'
import { worldStateSchema } from './scenario-schema.js'

/** A state document may be much larger than an API body; it is still bounded. */
const STATE_BODY_LIMIT = 64 * 1024 * 1024

/** The control API under `/__mock` (D26). */
export function controlRoutes(sim: Simulator): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/health',
      summary: 'Liveness, seed, scenario and mounted areas',
      handle: () =>
        json({
          status: 'ok',
          seed: sim.seed,
          scenario: sim.scenario,
          clock: { now: sim.now(), fixed: sim.clockFixed },
          areas: sim.areas.map(({ id, letter, title, baseUrls }) => ({ id, letter, title, baseUrls })),
        }),
    },
    {
      method: 'POST',
      path: '/reset',
      summary: 'Back to the state right after the current scenario was loaded',
      async handle() {
        await sim.reset()
        return json({ status: 'reset', scenario: sim.scenario })
      },
    },
    {
      method: 'GET',
      path: '/scenarios',
      summary: 'Available scenarios',
      handle: () => json(sim.listScenarios().map((entry) => ({ ...entry, active: entry.name === sim.scenario }))),
    },
    {
      method: 'POST',
      path: '/scenarios/{name}',
      summary: 'Load a scenario by name',
      async handle({ params }) {
        const name = params.name!
        const known = sim.listScenarios().map((entry) => entry.name)
        if (!known.includes(name)) {
          throw notFound(`No scenario named "${name}". Available: ${known.join(', ')}.`, { available: known })
        }
        await sim.loadScenario(name)
        return json({ status: 'loaded', scenario: name })
      },
    },
    {
      method: 'GET',
      path: '/state',
      summary: 'The whole world as JSON (no password hashes)',
      handle: () => json(sim.exportState()),
    },
    {
      method: 'PUT',
      path: '/state',
      summary: 'Replace the whole world (validated; nothing changes on error)',
      async handle({ request }) {
        const state = await readJsonBody(request, { limit: STATE_BODY_LIMIT })
        try {
          await sim.importState(state)
        } catch (error) {
          if (error instanceof ScenarioError) {
            throw new ApiError(400, 'validation_failed', 'The state document is invalid; nothing was changed.', { details: error.details })
          }
          throw error
        }
        return json({ status: 'replaced', counts: sim.counts() })
      },
    },
  ]
}
