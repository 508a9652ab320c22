import type { z } from 'zod'
import { ApiError, notFound, validationFailed } from '../../kernel/errors/api-error.js'
import { parseInstant } from '../../kernel/time/clock.js'
import { parseDuration } from '../../kernel/time/sim-clock.js'
import { withinClockRange } from '../../kernel/time/iso-instant.js'
import { json } from '../../kernel/http/json/json-response.js'
import { streamedJson } from '../../kernel/http/json/json-stream.js'
import { defineRoute, jsonBody, rawJsonBody } from '../../kernel/routing/route.js'
import type { AreaId } from '../../areas/registry.js'
import type { Simulator } from '../simulator.js'
import type { StoreStatus } from '../log/command-store.js'
import { storeUnavailable } from '../../kernel/errors/store-unavailable.js'
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
import { ScenarioError } from '../../kernel/errors/scenario-error.js'
import { worldStateSchema } from '../state/scenario-schema.js'
import { worldRecordsConflictError, worldTooLargeError } from '../worlds/world-budget.js'

/** A state document may be much larger than an API body; it is still bounded. */
const STATE_BODY_LIMIT = 64 * 1024 * 1024

/** The state document is streamed a record at a time: state, section, list, then each record whole. */
export const STATE_DEPTH = 3

/** What the control API works on: the simulator (or world) the request is for. */
export interface ControlRouteContext {
  sim: Simulator
  /** The shared store's state (`serve --store`), `undefined` without one. */
  store: () => (StoreStatus & { applied: string }) | undefined
}

/**
 * The control API under `/__mock` (D26).
 * Its return type is inferred, not declared: the operation types (control-operations.ts) are read from it.
 */
export function controlRoutes({ sim, store }: ControlRouteContext) {
  const clockNow = () => ({ now: sim.now(), fixed: sim.clockFixed })
  return [
    defineRoute({
      method: 'GET',
      path: '/health',
      operationId: 'getHealth',
      summary: 'Health, seed, scenario and mounted areas',
      description:
        'Answers 200 as long as the simulator runs, with the seed and scenario it was seeded with, its clock, and each mounted area with its letter, title and base URLs.',
      responses: { 200: { body: health } },
      errors: ['store_unavailable'],
      examples: () => [{}],
      handle() {
        const shared = store()
        if (shared !== undefined && !shared.up) throw storeUnavailable(shared.reason ?? 'no answer')
        return json({
          status: 'ok',
          seed: sim.seed,
          scenario: sim.scenario,
          clock: clockNow(),
          areas: sim.areas.map(({ id, letter, title, baseUrls }) => ({ id, letter, title, baseUrls })),
          ...(shared === undefined ? {} : { store: { store: shared.store, up: true as const, applied: shared.applied } }),
        } satisfies z.infer<typeof health>)
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/reset',
      operationId: 'reset',
      summary: 'Reset the world to the current scenario',
      description:
        'Back to the state right after the current scenario was loaded: its data, its fault rules and its clock (a frozen clock goes back to its instant, a running one to its offset). The request journal is emptied.',
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
      summary: 'List the scenarios',
      description: 'Every scenario this simulator can load, built in or registered with it (`scenarios` option); `active` marks the one loaded now.',
      responses: { 200: { body: scenarioList } },
      examples: () => [{}],
      handle: () => json(sim.listScenarios().map((entry) => ({ ...entry, active: entry.name === sim.scenario })) satisfies z.infer<typeof scenarioList>),
    }),
    defineRoute({
      method: 'POST',
      path: '/scenarios/{name}',
      operationId: 'loadScenario',
      summary: 'Load a scenario',
      description:
        'Empties the world and seeds the scenario; it becomes what `POST /__mock/reset` returns to. An unknown name is a 404 that lists the known ones. In an isolated world the records it seeds count against `--max-world-records` and `--max-total-world-records` before anything is generated; past them nothing changes.',
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
      summary: 'Read the simulator clock',
      description: '`now` is the current instant of the simulator clock; `fixed` is `true` while it stands still (`--clock <instant>`, or `mode: "fixed"`).',
      responses: { 200: { body: clockView } },
      examples: () => [{}],
      handle: () => json(clockNow()),
    }),
    defineRoute({
      method: 'POST',
      path: '/clock',
      operationId: 'moveClock',
      summary: 'Freeze, set or advance the simulator clock',
      description:
        'Give at least one of `mode` (`fixed` stops the clock, `system` lets it run), `set` (an instant) and `advance` (milliseconds or a duration such as `90s`). They apply in that order; a running clock keeps an offset. The clock stays within the years 0000 to 9999: a move beyond them, or any bad value, is a 400 and moves nothing.',
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
      summary: 'Export the whole world',
      description:
        'Every section of every area as one JSON document, in the form `PUT /__mock/state` and scenario files take. Users carry no password hashes. Streamed one record at a time, so a large world is never held whole.',
      responses: { 200: { body: worldStateSchema } },
      // Streamed: a 100,000-user world is ~25 MB of JSON, never held whole (bench/README.md, "Scale").
      handle: () => streamedJson(sim.exportState(), STATE_DEPTH),
    }),
    defineRoute({
      method: 'PUT',
      path: '/state',
      operationId: 'replaceState',
      summary: 'Replace the whole world',
      description:
        'The document is checked as a whole, its cross-references included (unique ids, known validators, pairs collapsed together); an invalid one is a 400 listing every problem, and nothing changes. A missing section becomes empty. Users may carry `password` (hashed at once); the clock is not touched. In an isolated world the records it lists count against `--max-world-records` and `--max-total-world-records`.',
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
      summary: 'This OpenAPI document',
      description:
        "Generated from the schemas the routes validate with, with this server's URLs; `area` gives one area with its own paths and base URLs. Never needs the control token. `GET /__mock/docs` on the CLI server renders it.",
      query: openApiQuery,
      responses: { 200: { body: openApiDocumentSchema } },
      errors: [{ code: 'not_found', description: 'The area asked for is not mounted.' }],
      // No example of the document itself: examples are recorded by asking a simulator for it.
      examples: () => [{ name: 'unknownArea', summary: 'An area id that does not exist', query: { area: 'nowhere' } }],
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
