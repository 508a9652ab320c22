import * as z from 'zod'
import { ApiError } from '../../kernel/errors/api-error.js'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { empty, json } from '../../kernel/http/json/json-response.js'
import { defineRoute, jsonBody } from '../../kernel/routing/route.js'
import type { ScenarioInput } from '../state/scenario-schema.js'
import { ScenarioError } from '../../kernel/errors/scenario-error.js'
import { type CreateWorldOptions, createWorldBodySchema, requestedWorld, unknownWorld, WORLD_COOKIE, WORLD_HEADER, worldInfoSchema, type Worlds } from './worlds.js'
import { worldRecordsConflictShape, worldTooLargeError } from './world-budget.js'

/** A world body may carry a whole scenario object. */
const WORLD_BODY_LIMIT = 4 * 1024 * 1024

/** `GET /__mock/worlds` answer. */
export const worldListSchema = z
  .object({
    max: z.int().min(0).describe('Most worlds alive at once besides the default one (`worlds.max`, `--max-worlds`).'),
    idleMs: z.number().positive().describe('Real milliseconds without a request after which a world is removed (`worlds.idle`, `--world-idle`).'),
    maxRecords: z.int().min(0).describe('Records one world may be seeded with (`worlds.maxRecords`, `--max-world-records`).'),
    maxTotalRecords: z.int().min(0).describe('Records all worlds together may be seeded with (`worlds.maxTotalRecords`, `--max-total-world-records`).'),
    records: z.int().min(0).describe('Records the worlds alive now were seeded with, in all.'),
    header: z.literal(WORLD_HEADER).describe('The request header that picks a world.'),
    cookie: z.literal(WORLD_COOKIE).describe('The cookie that picks a world when the header is absent.'),
    worlds: z.array(worldInfoSchema).describe('The worlds alive now, oldest first; the default world is not listed.'),
  })
  .meta({ id: 'WorldList', description: 'The isolated worlds alive now, with the limits and idle expiry.' })

/** `{worldId}` of `/__mock/worlds/{worldId}`. */
export const worldParams = z.object({ worldId: z.string().describe('The id `POST /__mock/worlds` answered, or the one given there.') })

/** The 404 for a world id no world has: the body names it. */
const unknownWorldError = {
  code: 'not_found',
  extra: z.object({ world: z.string() }),
  description: 'No world with that id: never created, deleted, or expired after the idle time; `world` names it.',
} as const

/** A taken id, a full registry and the records of all worlds past their limit are all 409; the body says which. */
const worldConflictExtra = z.object({
  field: z.literal('id').optional().describe('Present when the id is taken.'),
  limit: z
    .int()
    .min(0)
    .optional()
    .describe('Present when a limit is reached: the most worlds (`--max-worlds`), or with `records` the most records in all (`--max-total-world-records`).'),
  records: worldRecordsConflictShape.records.optional(),
  inUse: worldRecordsConflictShape.inUse.optional(),
})

/** What the world routes work on: the family's registry, and where the control API is mounted (for `Location`). */
export interface WorldRouteContext {
  worlds: Worlds<{ readonly worldId: string | null }>
  prefix: string
}

/**
 * `/__mock/worlds`: create, list and delete isolated worlds. They act on the
 * shared registry whichever world the request itself is for, so a browser whose
 * cookie names a deleted world can still create a new one.
 * Its return type is inferred, not declared: the operation types (control-operations.ts) are read from it.
 */
export function worldRoutes({ worlds, prefix }: WorldRouteContext) {
  const info = (id: string) => worlds.list().find((world) => world.id === id)
  return [
    defineRoute({
      method: 'GET',
      path: '/worlds',
      operationId: 'listWorlds',
      summary: 'List the isolated worlds',
      description: `The isolated worlds alive now, oldest first, with the limits on worlds and records and the idle time after which a world is removed. A request picks a world with the \`${WORLD_HEADER}\` header or the \`${WORLD_COOKIE}\` cookie.`,
      responses: { 200: { body: worldListSchema } },
      examples: () => [{}],
      handle: () =>
        json({
          max: worlds.max,
          idleMs: worlds.idleMs,
          maxRecords: worlds.maxRecords,
          maxTotalRecords: worlds.maxTotalRecords,
          records: worlds.records,
          header: WORLD_HEADER,
          cookie: WORLD_COOKIE,
          worlds: worlds.list(),
        } satisfies z.infer<typeof worldListSchema>),
    }),
    defineRoute({
      method: 'POST',
      path: '/worlds',
      operationId: 'createWorld',
      summary: 'Create an isolated world',
      description: `A full simulator of its own (database, clock, seed, journal, fault rules and control API): requests with \`${WORLD_HEADER}: <id>\` see only it. Unset fields come from the server's options. With \`cookie: true\` the answer also carries \`Set-Cookie: ${WORLD_COOKIE}=<id>\`, so a browser's later requests go to the world. An unknown scenario name or an invalid scenario object is a 400 whose \`details\` paths start with \`scenario\`. The records the scenario seeds (users, products, particles, resources...; generated or listed) are counted before anything is generated: past \`--max-world-records\` for one world it is a 413 \`world_too_large\`, past \`--max-total-world-records\` for all worlds a 409.`,
      body: jsonBody(createWorldBodySchema, { limit: WORLD_BODY_LIMIT }),
      responses: { 201: { description: "Created; `Location` is the world's URL.", body: worldInfoSchema, headers: ['Location'] } },
      errors: [
        {
          code: 'conflict',
          extra: worldConflictExtra,
          description:
            'The id is taken (`field: "id"`), the limit of worlds is reached (`limit`), or the worlds would hold more records in all than `--max-total-world-records` (`limit`, `records`, `inUse`): delete one or let idle ones expire.',
        },
        worldTooLargeError,
      ],
      // No successful example: its times are real time, so the document would change at every start.
      examples: () => [{ name: 'unknownScenario', summary: 'A scenario name the server does not know', body: { scenario: 'nope' } }],
      async handle({ body }) {
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
    }),
    defineRoute({
      method: 'GET',
      path: '/worlds/{worldId}',
      operationId: 'getWorld',
      summary: 'Read an isolated world',
      description:
        'The world as `GET /__mock/worlds` lists it: its id, scenario, seed and records, when it was created and last used, and when it expires. An unknown id, or a world removed after its idle time, is a 404.',
      params: worldParams,
      responses: { 200: { body: worldInfoSchema } },
      errors: [unknownWorldError],
      examples: () => [{ name: 'unknown', params: { worldId: 'nope' } }],
      handle({ params: { worldId } }) {
        return json(info(worldId) ?? throwError(unknownWorld(worldId, worlds.idleMs)))
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/worlds/{worldId}',
      operationId: 'deleteWorld',
      summary: 'Delete an isolated world',
      description: `Removes the world and everything in it; requests that name it then get a 404. When the request picked the world by the \`${WORLD_COOKIE}\` cookie (no \`${WORLD_HEADER}\` header), the answer also clears the cookie.`,
      params: worldParams,
      responses: { 204: { description: 'Removed; no body.' } },
      errors: [unknownWorldError],
      examples: () => [{ name: 'unknown', params: { worldId: 'nope' } }],
      handle({ request, params: { worldId: id } }) {
        if (!worlds.delete(id)) throw unknownWorld(id, worlds.idleMs)
        // A browser whose cookie named this world goes back to the default one.
        return requestedWorld(request) === id && request.headers.get(WORLD_HEADER) === null
          ? empty(204, { 'set-cookie': `${WORLD_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax` })
          : empty(204)
      },
    }),
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
