import * as z from 'zod'
import { notFound } from '../../kernel/errors/api-error.js'
import { json } from '../../kernel/http/json/json-response.js'
import { intParam } from '../../kernel/http/query.js'
import { worldRecordsConflictShape } from '../worlds/world-budget.js'
import { defineRoute } from '../../kernel/routing/route.js'
import { isoTimestamp } from '../../kernel/time/iso-timestamp.js'
import type { Command } from '../log/command.js'
import { worldStateSchema } from '../state/scenario-schema.js'
import type { Simulator } from '../simulator.js'
import { diffStates, stateDiffSchema } from './state-diff.js'
import type { WorldHistoryEntry } from './world-history.js'
import { type RewindWorld, WorldRewind } from './world-rewind.js'

/** One kept command as the time line lists it: no body (passwords are sealed there, other secrets are not). */
export const historyCommandSchema = z
  .strictObject({
    number: z.int().min(1).describe('Its place in the kept history, from 1 (`GET /__mock/history/{number}`, `serve --replay-until`).'),
    method: z.string(),
    path: z.string().describe('The path it was sent to, without the query.'),
    at: isoTimestamp.describe('When the server accepted it (its own clock, not the world’s).'),
  })
  .meta({ id: 'HistoryCommand' })

/** `GET /__mock/history` answer. */
export const worldHistorySchema = z
  .strictObject({
    world: z.string().nullable().describe('The isolated world it is of; null for the default world.'),
    folded: z.int().min(0).describe('Older commands, folded into the world the history starts from (a long history is kept from a later start).'),
    startedAt: isoTimestamp.describe('When the kept history starts (the server’s clock); another value than before: the history started again, its numbers anew.'),
    count: z.int().min(0).describe('Commands the history holds.'),
    commands: z.array(historyCommandSchema).describe('Every command applied to the world since (from number `from`), oldest first.'),
  })
  .meta({ id: 'WorldHistory', description: 'The commands (writes) the world kept, in the order they were applied.' })

/** `GET /__mock/history/{number}` answer. */
export const historyPointSchema = z
  .strictObject({
    world: z.string().nullable(),
    commands: z.int().min(1).describe('Commands the history holds now.'),
    command: historyCommandSchema,
    clock: isoTimestamp.describe('The world’s clock when the command arrived.'),
    state: worldStateSchema.describe('The world just before the command, as `GET /__mock/state` would have answered (no password hashes).'),
    diff: stateDiffSchema.describe('What the command changed.'),
  })
  .meta({ id: 'WorldHistoryPoint', description: 'The world as it stood before one of its commands, and what that command changed.' })

/** `GET /__mock/history` query. */
const historyQuery = z.object({
  from: intParam(1).optional().describe('Only the commands from this number on (a page that holds the others already).'),
})

/** `{number}` of `/__mock/history/{number}`. */
const historyParams = z.object({ number: intParam(1).describe('The command’s number, as `GET /__mock/history` lists it.') })

/** A world's rebuilt history is let go after this long unused (its scratch simulator and saved worlds). */
const REWIND_IDLE_MS = 5 * 60_000

/**
 * The control API of a world's time line (issue 35): the commands it kept,
 * and the world as it stood before any of them with what that command
 * changed, rebuilt in a scratch simulator (`WorldRewind`), never in the live
 * world. The rebuilt worlds are cached for the world's current history, so
 * stepping through it is fast. Its return type is inferred, not declared:
 * the operation types are read from it.
 *
 * @example
 * const routes = historyRoutes({ sim })
 */
export function historyRoutes({ sim }: { sim: Simulator }) {
  let cached: WorldRewind | undefined
  let idle: ReturnType<typeof setTimeout> | undefined
  /** The rebuilt history of `entry`, made again when the world's history is another (it started again). */
  const rewindOf = (entry: WorldHistoryEntry): WorldRewind => {
    if (cached?.entry !== entry) cached = new WorldRewind(world(), entry)
    clearTimeout(idle)
    idle = setTimeout(() => (cached = undefined), REWIND_IDLE_MS)
    // Never what keeps a Node process running.
    ;(idle as { unref?: () => void }).unref?.()
    return cached
  }
  const world = () => rewindable(sim)
  /** The world's history as it stands, read in its log's turn (between two commands). */
  const historyNow = async (): Promise<WorldHistoryEntry> => {
    const { log } = world().family
    const entry = await log.serial(async () => log.history!.of(world().worldId))
    if (entry === undefined) throw new Error('The world has no history: it is gone.')
    return entry
  }
  return [
    defineRoute({
      method: 'GET',
      path: '/history',
      operationId: 'getHistory',
      summary: "The world's kept commands",
      description:
        'Every command (write) applied to the world since its kept history starts, oldest first, numbered from 1: its method, path and when it was accepted; `from` gives only the later ones. `GET /__mock/history/{number}` shows the world as it stood before one of them. With `x-mock-world`, the history of that world. See docs/forensics.md.',
      query: historyQuery,
      responses: { 200: { body: worldHistorySchema } },
      // No successful example: `startedAt` is the server's real time, so the document would change at every start.
      examples: () => [{ name: 'badFrom', summary: 'A command number below 1', query: { from: '0' } }],
      async handle({ query: { from = 1 } }) {
        const entry = await historyNow()
        const commands = entry.commands.slice(from - 1)
        return json({
          world: world().worldId,
          folded: entry.folded,
          startedAt: new Date(entry.startedAt).toISOString(),
          count: entry.commands.length,
          commands: commands.map((command, index) => listed(command, from - 1 + index)),
        } satisfies z.infer<typeof worldHistorySchema>)
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/history/{number}',
      operationId: 'getHistoryPoint',
      summary: 'The world before one of its commands',
      description:
        'The world as it stood just before command `number` (its state, as `GET /__mock/state` answers it, and its clock), and what the command changed: per section and collection, the records added, changed (with the fields that changed) and removed. Rebuilt apart from the world from its kept history: the world itself is never touched. Stepping to the next or the previous command is fast (a saved world every 10 commands). A long rebuild shares the server: other requests go on while it runs, and past about a second it answers 503 with `Retry-After`, keeping what it built.',
      params: historyParams,
      responses: { 200: { body: historyPointSchema } },
      errors: [
        { code: 'not_found', extra: z.object({ commands: z.int().min(0) }), description: 'No command with that number: `commands` says how many the history holds.' },
        {
          code: 'conflict',
          extra: z.object(worldRecordsConflictShape),
          description:
            'Rebuilding the history would make isolated worlds (commands that made worlds) that, with the live ones, hold more records than `--max-total-world-records`; nothing was changed.',
        },
        {
          code: 'service_unavailable',
          description:
            'A long history is still being rebuilt: one request rebuilds for about a second, letting other requests in as it goes, then answers this; what it built stays built. Ask again after `Retry-After` seconds.',
        },
      ],
      // No successful example: a command's `at` is the server's real time.
      examples: () => [
        { name: 'outOfRange', summary: 'A command the history does not hold', params: { number: '999999' } },
        { name: 'notANumber', summary: 'No command number', params: { number: 'first' } },
      ],
      async handle({ params: { number } }) {
        const entry = await historyNow()
        const count = entry.commands.length
        if (number > count) throw notFound(`No command ${number} in the world's history: it holds ${count === 0 ? 'none' : `commands 1 to ${count}`}.`, { commands: count })
        const { before, after, clock } = await rewindOf(entry).around(number)
        return json({
          world: world().worldId,
          commands: count,
          command: listed(entry.commands[number - 1]!, number - 1),
          clock: new Date(clock).toISOString(),
          state: before,
          diff: diffStates(before, after),
        })
      },
    }),
  ]
}

function listed(command: Command, index: number): z.infer<typeof historyCommandSchema> {
  return { number: index + 1, method: command.method, path: new URL(command.url).pathname, at: new Date(command.at).toISOString() }
}

/** The simulator as a rewind uses it (every simulator `createSimulator` makes keeps its worlds' history). */
function rewindable(sim: Simulator): RewindWorld {
  const world = sim as unknown as Partial<RewindWorld>
  if (world.family?.log.history === undefined) throw new Error('This simulator keeps no history of its worlds.')
  return world as RewindWorld
}
