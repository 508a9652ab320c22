import * as z from 'zod'
import { ApiError } from '../kernel/api-error.js'
import { ConfigError } from '../kernel/clock.js'
import { readJsonBody } from '../kernel/json-body.js'
import { parseOrThrow } from '../kernel/validate.js'
import { empty, json } from '../kernel/json-response.js'
import type { RouteDefinition } from '../kernel/route.js'
import type { ScenarioInput } from './scenario-schema.js'
import { ScenarioError } from './scenario-error.js'
import {
  type CreateWorldOptions,
  createWorldBodySchema,
  requestedWorld,
  unknownWorld,
  WORLD_COOKIE,
  WORLD_HEADER,
  worldInfoSchema,
  type Worlds,
} from './worlds.js'

/** A world body may carry a whole scenario object. */
const WORLD_BODY_LIMIT = 4 * 1024 * 1024

/** `GET /__mock/worlds` answer. */
export const worldListSchema = z
  .object({
    max: z.int().min(0).describe('Most worlds alive at once besides the default one (`worlds.max`, `--max-worlds`).'),
    idleMs: z.number().positive().describe('Real milliseconds without a request after which a world is removed (`worlds.idle`, `--world-idle`).'),
    header: z.literal(WORLD_HEADER).describe('The request header that picks a world.'),
    cookie: z.literal(WORLD_COOKIE).describe('The cookie that picks a world when the header is absent.'),
    worlds: z.array(worldInfoSchema).describe('The worlds alive now, oldest first; the default world is not listed.'),
  })
  .meta({ id: 'WorldList', description: 'The isolated worlds alive now, with the limit and idle expiry.' })

/** `{worldId}` of `/__mock/worlds/{worldId}`. */
export const worldParams = z.object({ worldId: z.string().describe('The id `POST /__mock/worlds` answered, or the one given there.') })

/** The 404 for a world id no world has: the body names it. */
const unknownWorldError = {
  code: 'not_found',
  extra: z.object({ world: z.string() }),
  description: 'No world with that id: never created, deleted, or expired after the idle time; `world` names it.',
} as const

/** A taken id and a full registry are both 409; the body says which. */
const worldConflictExtra = z.object({
  field: z.literal('id').optional().describe('Present when the id is taken.'),
  limit: z.int().min(0).optional().describe('Present when the limit of worlds is reached: the limit.'),
})

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
      operationId: 'listWorlds',
      summary: 'The isolated worlds alive now, with the limit and idle expiry',
      responses: { 200: { body: worldListSchema } },
      examples: () => [{}],
      handle: () =>
        json({ max: worlds.max, idleMs: worlds.idleMs, header: WORLD_HEADER, cookie: WORLD_COOKIE, worlds: worlds.list() } satisfies z.infer<typeof worldListSchema>),
    },
    {
      method: 'POST',
      path: '/worlds',
      operationId: 'createWorld',
      summary: `Create an isolated world {id?, scenario?, seed?, clock?, cookie?}; requests with ${WORLD_HEADER}: <id> see only it`,
      description: `A full simulator of its own: database, clock, seed, journal, fault rules and control API. Unset fields come from the server's options. With \`cookie: true\` the answer also carries \`Set-Cookie: ${WORLD_COOKIE}=<id>\`, so a browser's later requests go to the world. An unknown scenario name or an invalid scenario object is a 400 whose \`details\` paths start with \`scenario\`.`,
      body: createWorldBodySchema,
      responses: { 201: { description: "Created; `Location` is the world's URL.", body: worldInfoSchema, headers: ['Location'] } },
      errors: [{ code: 'conflict', extra: worldConflictExtra, description: 'The id is taken (`field: "id"`), or the limit of worlds is reached (`limit`): delete one or let idle ones expire.' }],
      // No successful example: its times are real time, so the document would change at every start.
      examples: () => [{ name: 'unknownScenario', summary: 'A scenario name the server does not know', body: { scenario: 'nope' } }],
      async handle({ request }) {
        const raw = await readJsonBody(request, { limit: WORLD_BODY_LIMIT })
        const body = parseOrThrow(createWorldBodySchema, raw)
        const options: CreateWorldOptions = {}
        if (body.id !== undefined) options.id = body.id
        // The scenario as sent: the world parses it itself (checked above, so it passes).
        if (body.scenario !== undefined) options.scenario = (raw as { scenario: string | ScenarioInput }).scenario
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
      operationId: 'getWorld',
      summary: 'One isolated world',
      params: worldParams,
      responses: { 200: { body: worldInfoSchema } },
      errors: [unknownWorldError],
      examples: () => [{ name: 'unknown', params: { worldId: 'nope' } }],
      handle({ params }) {
        return json(info(params.worldId!) ?? throwError(unknownWorld(params.worldId!, worlds.idleMs)))
      },
    },
    {
      method: 'DELETE',
      path: '/worlds/{worldId}',
      operationId: 'deleteWorld',
      summary: 'Remove an isolated world and everything in it',
      description: `When the request picked the world by the \`${WORLD_COOKIE}\` cookie (no \`${WORLD_HEADER}\` header), the answer also clears the cookie.`,
      params: worldParams,
      responses: { 204: { description: 'Removed; no body.' } },
      errors: [unknownWorldError],
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
