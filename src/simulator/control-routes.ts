import type { z } from 'zod'
import { ApiError, notFound, validationFailed } from '../kernel/errors/api-error.js'
import { parseInstant } from '../kernel/time/clock.js'
import { parseDuration, withinClockRange } from '../kernel/time/sim-clock.js'
import { json } from '../kernel/http/json-response.js'
import { streamedJson } from '../kernel/http/json-stream.js'
import { defineRoute, jsonBody, rawJsonBody } from '../kernel/routing/route.js'
import type { AreaId } from '../areas/registry.js'
import type { Simulator } from './simulator.js'
import {
  clockBody,
  clockView,
  health,
  loadResult,
  openApiDocumentSchema,
  openApiQuery,
  replaceResult,
  resetResult,
  scenarioList,
  scenarioParams,
  unknownScenarioExtra,
} from './control-schemas.js'
import { ScenarioError } from '../kernel/errors/scenario-error.js'
import { worldStateSchema } from './scenario-schema.js'
import { worldRecordsConflictError, worldTooLargeError } from './world-budget.js'

/** A state document may be much larger than an API body; it is still bounded. */
const STATE_BODY_LIMIT = 64 * 1024 * 1024

/** The state document is streamed a record at a time: state, section, list, then each record whole. */
export const STATE_DEPTH = 3

/** What the control API works on: the simulator (or world) the request is for. */
export interface ControlRouteContext {
  sim: Simulator
}

/**
 * The control API under `/__mock` (D26).
 * Its return type is inferred, not declared: the operation types (control-operations.ts) are read from it.
 */
export function controlRoutes({ sim }: ControlRouteContext) {
  const clockNow = () => ({ now: sim.now(), fixed: sim.clockFixed })
  return [
    defineRoute({
      method: 'GET',
      path: '/health',
      operationId: 'getHealth',
      summary: 'Liveness, seed, scenario and mounted areas',
      responses: { 200: { body: health } },
      examples: () => [{}],
      handle: () =>
        json({
          status: 'ok',
          seed: sim.seed,
          scenario: sim.scenario,
          clock: clockNow(),
          areas: sim.areas.map(({ id, letter, title, baseUrls }) => ({ id, letter, title, baseUrls })),
        } satisfies z.infer<typeof health>),
    }),
    defineRoute({
      method: 'POST',
      path: '/reset',
      operationId: 'reset',
      summary: 'Back to the state right after the current scenario was loaded',
      description: 'Includes the clock: a frozen clock goes back to its instant, a running one to its offset.',
      responses: { 200: { body: resetResult } },
      examples: () => [{}],
      async handle() {
        await sim.reset()
        return json({ status: 'reset', scenario: sim.scenario } satisfies z.infer<typeof resetResult>)
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/scenarios',
      operationId: 'listScenarios',
      summary: 'Available scenarios',
      responses: { 200: { body: scenarioList } },
      examples: () => [{}],
      handle: () => json(sim.listScenarios().map((entry) => ({ ...entry, active: entry.name === sim.scenario })) satisfies z.infer<typeof scenarioList>),
    }),
    defineRoute({
      method: 'POST',
      path: '/scenarios/{name}',
      operationId: 'loadScenario',
      summary: 'Load a scenario by name',
      description:
        'Empties the world and seeds the scenario; it becomes what `POST /__mock/reset` returns to. In an isolated world the records it seeds count against `--max-world-records` and `--max-total-world-records`, before anything is generated.',
      params: scenarioParams,
      responses: { 200: { body: loadResult } },
      errors: [{ code: 'not_found', extra: unknownScenarioExtra, description: 'No such scenario; `available` lists them.' }, worldTooLargeError, worldRecordsConflictError],
      examples: () => [{ params: { name: 'empty' } }, { name: 'unknown', params: { name: 'nope' } }],
      async handle({ params: { name } }) {
        const known = sim.listScenarios().map((entry) => entry.name)
        if (!known.includes(name)) {
          throw notFound(`No scenario named "${name}". Available: ${known.join(', ')}.`, { available: known })
        }
        await sim.loadScenario(name)
        return json({ status: 'loaded', scenario: name } satisfies z.infer<typeof loadResult>)
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/clock',
      operationId: 'getClock',
      summary: 'The simulator clock: current instant and whether it stands still',
      responses: { 200: { body: clockView } },
      examples: () => [{}],
      handle: () => json(clockNow()),
    }),
    defineRoute({
      method: 'POST',
      path: '/clock',
      operationId: 'moveClock',
      summary: 'Move the simulator clock: {mode: "fixed"|"system", set: iso, advance: ms | "90s"}',
      description: 'Applied in the order `mode`, `set`, `advance`; works on a running clock too (it keeps an offset). A bad value moves nothing.',
      body: jsonBody(clockBody, { limit: 4096 }),
      responses: { 200: { body: clockView } },
      examples: () => [{ summary: 'Ninety seconds later', body: { advance: '90s' } }],
      handle({ body }) {
        // Checked before anything moves, so a refused request changes nothing (D11).
        if (body.advance !== undefined) {
          const from = body.set !== undefined ? parseInstant(body.set) : sim.clock.nowMs()
          if (!withinClockRange(from + parseDuration(body.advance))) {
            throw validationFailed([{ path: 'advance', message: 'would move the clock out of the years 0000 to 9999' }])
          }
        }
        if (body.mode === 'fixed') sim.clock.freeze()
        if (body.mode === 'system') sim.clock.resume()
        if (body.set !== undefined) sim.clock.set(body.set)
        if (body.advance !== undefined) sim.clock.advance(body.advance)
        return json(clockNow())
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/state',
      operationId: 'getState',
      summary: 'The whole world as JSON (no password hashes)',
      responses: { 200: { body: worldStateSchema } },
      // Streamed: a 100,000-user world is ~25 MB of JSON, never held whole (bench/README.md, "Scale").
      handle: () => streamedJson(sim.exportState(), STATE_DEPTH),
    }),
    defineRoute({
      method: 'PUT',
      path: '/state',
      operationId: 'replaceState',
      summary: 'Replace the whole world (validated; nothing changes on error)',
      description:
        'A missing section becomes empty. Users may carry `password` (hashed at once); the clock is not touched. In an isolated world the records it lists count against `--max-world-records` and `--max-total-world-records`.',
      // Validated by `importState`, which refuses a bad document as a whole.
      body: rawJsonBody(worldStateSchema, { limit: STATE_BODY_LIMIT }),
      responses: { 200: { body: replaceResult } },
      errors: [worldTooLargeError, worldRecordsConflictError],
      async handle({ body }) {
        try {
          await sim.importState(body)
        } catch (error) {
          if (error instanceof ScenarioError) {
            throw new ApiError(400, 'validation_failed', 'The state document is invalid; nothing was changed.', { details: error.details })
          }
          throw error
        }
        return json({ status: 'replaced', counts: sim.counts() } satisfies z.infer<typeof replaceResult>)
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      operationId: 'getOpenApi',
      summary: "This OpenAPI 3.1 document, with this server's URLs",
      description: 'Generated from the zod schemas the routes validate with; `GET /__mock/docs` on the CLI server renders it.',
      query: openApiQuery,
      responses: { 200: { body: openApiDocumentSchema } },
      errors: [{ code: 'not_found', description: 'The area asked for is not mounted.' }],
      // No examples: they are recorded by asking a simulator for its document.
      async handle({ request, url, query: { area } }) {
        // The host the client used (`localhost:4000`, a LAN name), not the one the server bound.
        const host = request.headers.get('host')
        const origin = host ? `${url.protocol}//${host}` : url.origin
        if (area !== undefined && !sim.areas.some((mounted) => mounted.id === area)) {
          throw notFound(`No area "${area}" is mounted. Mounted: ${sim.areas.map((mounted) => mounted.id).join(', ')}.`)
        }
        return json(await sim.openapi({ origin, ...(area ? { area: area as AreaId } : {}) }))
      },
    }),
  ]
}
