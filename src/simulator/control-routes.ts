import * as z from 'zod'
import { ApiError, notFound } from '../kernel/api-error.js'
import { parseInstant } from '../kernel/clock.js'
import { parseBody, readJsonBody } from '../kernel/json-body.js'
import { json } from '../kernel/json-response.js'
import type { RouteDefinition } from '../kernel/route.js'
import { parseDuration } from '../kernel/sim-clock.js'
import { acceptedBy } from '../kernel/validate.js'
import type { Simulator } from './create-simulator.js'
import { ScenarioError } from './scenario-error.js'
import { worldStateSchema } from './scenario-schema.js'

/** A state document may be much larger than an API body; it is still bounded. */
const STATE_BODY_LIMIT = 64 * 1024 * 1024

/** `POST /__mock/clock`: applied in the order mode, set, advance. */
const clockBody = z
  .object({
    mode: z.enum(['fixed', 'system'], 'must be "fixed" (time stands still) or "system" (time runs)').optional(),
    set: z.string().refine(acceptedBy(parseInstant), 'must be an ISO 8601 instant such as 2026-01-01T00:00:00Z').optional(),
    advance: z
      .union([z.number(), z.string()])
      .refine(acceptedBy(parseDuration), 'must be milliseconds or a duration such as "90s", "15m", "2h"')
      .optional(),
  })
  .refine((body) => body.mode !== undefined || body.set !== undefined || body.advance !== undefined, 'give at least one of mode, set, advance')

/** The control API under `/__mock` (D26). */
export function controlRoutes(sim: Simulator): RouteDefinition[] {
  const clockView = () => ({ now: sim.now(), fixed: sim.clockFixed })
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
          clock: clockView(),
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
      path: '/clock',
      summary: 'The simulator clock: current instant and whether it stands still',
      handle: () => json(clockView()),
    },
    {
      method: 'POST',
      path: '/clock',
      summary: 'Move the simulator clock: {mode: "fixed"|"system", set: iso, advance: ms | "90s"}',
      async handle({ request }) {
        const body = await parseBody(request, clockBody, { limit: 4096 })
        if (body.mode === 'fixed') sim.clock.freeze()
        if (body.mode === 'system') sim.clock.resume()
        if (body.set !== undefined) sim.clock.set(body.set)
        if (body.advance !== undefined) sim.clock.advance(body.advance)
        return json(clockView())
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
