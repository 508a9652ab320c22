import { ApiError } from '../kernel/api-error.js'
import { ConfigError } from '../kernel/clock.js'
import { parseBody } from '../kernel/json-body.js'
import { empty, json } from '../kernel/json-response.js'
import type { RouteDefinition } from '../kernel/route.js'
import type { ScenarioInput } from './scenario-schema.js'
import { ScenarioError } from './scenario-error.js'
import { type CreateWorldOptions, createWorldBodySchema, requestedWorld, unknownWorld, WORLD_COOKIE, WORLD_HEADER, type Worlds } from './worlds.js'

/** A world body may carry a whole scenario object. */
const WORLD_BODY_LIMIT = 4 * 1024 * 1024

/**
 * `/__mock/worlds`: create, list and delete isolated worlds. They act on the
 * shared registry whichever world the request itself is for, so a browser whose
 * cookie names a deleted world can still create a new one.
 */
export function worldRoutes(worlds: Worlds<{ readonly worldId: string | null }>, prefix: string): RouteDefinition[] {
  const info = (id: string) => worlds.list().find((world) => world.id === id)
  return [
    {
      method: 'GET',
      path: '/worlds',
      summary: 'The isolated worlds alive now, with the limit and idle expiry',
      handle: () => json({ max: worlds.max, idleMs: worlds.idleMs, header: WORLD_HEADER, cookie: WORLD_COOKIE, worlds: worlds.list() }),
    },
    {
      method: 'POST',
      path: '/worlds',
      summary: `Create an isolated world {id?, scenario?, seed?, clock?, cookie?}; requests with ${WORLD_HEADER}: <id> see only it`,
      async handle({ request }) {
        const body = await parseBody(request, createWorldBodySchema, { limit: WORLD_BODY_LIMIT })
        const options: CreateWorldOptions = {}
        if (body.id !== undefined) options.id = body.id
        if (body.scenario !== undefined) options.scenario = body.scenario as string | ScenarioInput
        if (body.seed !== undefined) options.seed = body.seed
        if (body.clock !== undefined) options.clock = body.clock
        let id: string
        try {
          id = (await worlds.create(options)).worldId!
        } catch (error) {
          throw asBadRequest(error)
        }
        const headers: Record<string, string> = { location: `${prefix}/worlds/${id}` }
        if (body.cookie) headers['set-cookie'] = `${WORLD_COOKIE}=${encodeURIComponent(id)}; Path=/; SameSite=Lax`
        return json(info(id), 201, headers)
      },
    },
    {
      method: 'GET',
      path: '/worlds/{worldId}',
      summary: 'One isolated world',
      handle({ params }) {
        return json(info(params.worldId!) ?? throwError(unknownWorld(params.worldId!, worlds.idleMs)))
      },
    },
    {
      method: 'DELETE',
      path: '/worlds/{worldId}',
      summary: 'Remove an isolated world and everything in it',
      handle({ request, params }) {
        const id = params.worldId!
        if (!worlds.delete(id)) throw unknownWorld(id, worlds.idleMs)
        // A browser whose cookie named this world goes back to the default one.
        return requestedWorld(request) === id && request.headers.get(WORLD_HEADER) === null
          ? empty(204, { 'set-cookie': `${WORLD_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax` })
          : empty(204)
      },
    },
  ]
}

/** A bad scenario or clock for a new world is the caller's mistake: 400 with details. */
function asBadRequest(error: unknown): unknown {
  if (error instanceof ScenarioError) {
    return new ApiError(400, 'validation_failed', 'The scenario is invalid; no world was created.', {
      details: error.details.map((detail) => ({ ...detail, path: detail.path ? `scenario.${detail.path}` : 'scenario' })),
    })
  }
  if (error instanceof ConfigError) {
    const path = /scenario/i.test(error.message) ? 'scenario' : /clock/i.test(error.message) ? 'clock' : ''
    return new ApiError(400, 'validation_failed', error.message, { details: [{ path, message: error.message }] })
  }
  return error
}

function throwError(error: ApiError): never {
  throw error
}
