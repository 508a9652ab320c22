import * as z from 'zod'
import { type ApiError, notFound } from '../../kernel/errors/api-error.js'
import { isoTimestamp } from '../../kernel/time/iso-timestamp.js'
import { type ScenarioInput, scenarioSchema } from '../state/scenario-schema.js'
import { isoInstant } from '../../kernel/time/iso-instant.js'
import { seedSchema } from '../../kernel/random/seed.js'

/** Request header that picks an isolated world. */
export const WORLD_HEADER = 'x-mock-world'
/** Cookie that picks a world when the header is absent (for browsers talking to the server). */
export const WORLD_COOKIE = 'mock-world'
/** The id of the world requests without a header or cookie see. */
export const DEFAULT_WORLD_ID = 'default'
export { DEFAULT_MAX_WORLDS, DEFAULT_WORLD_IDLE_MS, type WorldsOptions, worldsOptionsSchema } from './worlds-options.js'

/** How `sim.worlds.create()` and `POST /__mock/worlds` start a world; unset fields come from the simulator's options. */
export interface CreateWorldOptions {
  /** Your own id (letters, digits, `.`, `_`, `-`); default `world-1`, `world-2`, … */
  id?: string | undefined
  /** Scenario name or object. Default: the one the simulator was created with. */
  scenario?: string | ScenarioInput | undefined
  seed?: number | undefined
  /** ISO instant (frozen) or `'system'`. */
  clock?: string | undefined
}

const worldId = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1–64 letters, digits, ".", "_" or "-"')

/**
 * `POST /__mock/worlds` body. A scenario object is checked here with the
 * scenario schema itself, so the document shows every rule of it and the
 * details' paths start with `scenario`; a scenario name is looked up when the
 * world is made (an unknown one is a 400 too).
 */
export const createWorldBodySchema = z.strictObject({
  id: worldId
    .refine((id) => id !== DEFAULT_WORLD_ID, `"${DEFAULT_WORLD_ID}" is the default world`)
    .meta({ not: { const: DEFAULT_WORLD_ID } })
    .optional()
    .describe(`Your own id; not "${DEFAULT_WORLD_ID}" (the default world). Default: world-1, world-2, …`),
  scenario: z
    .union([z.string().min(1, 'must not be empty'), scenarioSchema], 'must be a scenario name or a scenario object')
    .optional()
    .describe('Scenario name or object; default: the one the server started with.'),
  seed: seedSchema().optional().describe("The world's seed; default: the server's."),
  clock: z
    .union([z.literal('system'), isoInstant], 'must be an ISO 8601 instant such as 2026-01-01T00:00:00Z, or "system"')
    .optional()
    .describe("An instant to freeze the world's clock at, or `system` (time runs); default: the server's."),
  cookie: z.boolean().optional().describe(`Also answer with Set-Cookie: ${WORLD_COOKIE}=<id>, so a browser's later requests go to the world.`),
})

/** A world as `GET /__mock/worlds` and `sim.worlds.list()` show it. Times are real time, not simulator time. */
export const worldInfoSchema = z
  .object({
    id: z.string(),
    scenario: z.string().describe('The scenario it was seeded with; `custom` for a scenario object.'),
    seed: z.int(),
    createdAt: isoTimestamp,
    lastUsedAt: isoTimestamp,
    expiresAt: isoTimestamp.describe('When it is removed unless a request uses it before.'),
    records: z
      .int()
      .min(0)
      .describe('Records it was last seeded with (its scenario, or the last state document put into it), counted against `--max-world-records` and `--max-total-world-records`.'),
  })
  .meta({ id: 'WorldInfo', description: 'An isolated world; its times are real time, not simulator time.' })
export type WorldInfo = z.output<typeof worldInfoSchema>

/** What the registry needs of a world's simulator. */
export interface WorldMember {
  readonly ready: Promise<void>
  readonly scenario: string
  readonly seed: number
}

/**
 * Isolated worlds in one simulator: each a full simulator of its own (database,
 * clock, seed, journal, faults) made with the same options. Requests pick one
 * with the `x-mock-world` header (or the `mock-world` cookie); without either
 * they see the default world.
 *
 * @example
 * const world = await sim.worlds.create({ scenario: 'empty' })
 * await fetch('http://localhost/core/users', { headers: { 'x-mock-world': world.worldId } })
 */
export interface Worlds<S> {
  /** Most worlds alive at once besides the default one. */
  readonly max: number
  /** Real milliseconds without a request after which a world is removed. */
  readonly idleMs: number
  /** Records one world may be seeded with (`worlds.maxRecords`). */
  readonly maxRecords: number
  /** Records all worlds together may be seeded with (`worlds.maxTotalRecords`). */
  readonly maxTotalRecords: number
  /** Records the worlds alive now were seeded with, in all. */
  readonly records: number
  /** Throws `ApiError`: 409 at `max` worlds or past `maxTotalRecords`, 413 `world_too_large` past `maxRecords`. */
  create(options?: CreateWorldOptions): Promise<S>
  /** The world's simulator (`'default'`: the default world), or `undefined` if unknown or expired. */
  get(id: string): S | undefined
  list(): WorldInfo[]
  /** Removes a world; `false` if there was none. */
  delete(id: string): boolean
}

/**
 * The 404 for a world id no world has (D9), naming the likely reasons.
 *
 * @example
 * throw unknownWorld('w9', 1_800_000) // 404 not_found, world: 'w9'
 */
export function unknownWorld(id: string, idleMs: number): ApiError {
  const idle = idleMs % 60_000 === 0 ? `${idleMs / 60_000} min` : `${idleMs / 1000} s`
  return notFound(`No world "${id}": never created, deleted, or expired after ${idle} idle. Without the ${WORLD_HEADER} header a request sees the default world.`, {
    world: id,
  })
}

/**
 * The world a request asks for: the `x-mock-world` header, else the
 * `mock-world` cookie; `null` for the default world.
 *
 * @example
 * requestedWorld(new Request('http://x/', { headers: { 'x-mock-world': 'w1' } })) // 'w1'
 */
export function requestedWorld(request: { readonly headers: { get(name: string): string | null } }): string | null {
  const header = request.headers.get(WORLD_HEADER)
  if (header !== null) return header.trim() || null
  const cookie = request.headers.get('cookie')
  if (cookie === null || !cookie.includes(WORLD_COOKIE)) return null
  const match = /(?:^|;)\s*mock-world=([^;]*)/.exec(cookie)
  if (!match) return null
  try {
    return decodeURIComponent(match[1]!.trim()) || null
  } catch {
    return match[1]!.trim()
  }
}
