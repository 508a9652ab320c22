import * as z from 'zod'
import { defineRoute } from '../../kernel/routing/route.js'
import { type EventStreamOptions, openEventStream, type WatchedWorld } from './event-stream.js'
import { DEFAULT_WORLD_ID, unknownWorld, WORLD_COOKIE, WORLD_HEADER, type Worlds } from '../worlds/worlds.js'

/** `GET /__mock/events` query. */
export const eventsQuery = z.object({
  world: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be a world id: 1–64 letters, digits, ".", "_" or "-"')
    .optional()
    .describe(
      `The world to follow (\`${DEFAULT_WORLD_ID}\` or an isolated world's id), for clients that cannot set the \`${WORLD_HEADER}\` header (EventSource). The header wins; this wins over the \`${WORLD_COOKIE}\` cookie.`,
    ),
})

/** What the stream carries, as text (OpenAPI). */
export const eventStreamText = z.string().describe('`event: <name>` and `data: <JSON>` lines, one blank line after each event.')

const STREAM_DESCRIPTION = `A [Server-Sent Events](https://html.spec.whatwg.org/multipage/server-sent-events.html) stream of one world, open until the client leaves:

- \`hello\`: first, \`{world, clock: {now, fixed}, journal: {capacity}}\`.
- \`request\`: each request journal entry as it is recorded, before the request is answered (a \`JournalEntry\`, redacted as \`GET /__mock/requests\` shows it).
- \`change\`: after each change of the world (a write request that reached a route, control calls included; reset; scenario load; state import): \`{cause, method?, url?, status?, clock}\`.
- \`scenario-file\`: the scenario file a server watches (\`serve --watch\`) changed, on the default world's stream: \`{file, scenario, status, counts?, error?}\`, \`status\` \`reloaded\` (with the world's record \`counts\`), \`registered\` (the world runs another scenario: only what the name loads changed) or \`invalid\` (the world stays as it was; \`error\` says why).
- \`gone\`: the world was deleted or expired; the stream ends.
- A \`: ping\` comment every 15 s.

The world is chosen by the \`${WORLD_HEADER}\` header, else the \`world\` query parameter, else the \`${WORLD_COOKIE}\` cookie. A client that falls more than 1 MiB behind is disconnected (an \`EventSource\` reconnects after the \`retry\` the stream names). With a control token, send \`Authorization: Bearer <token>\` (e.g. with \`fetch()\` and a stream reader; \`EventSource\` cannot send headers).`

export interface EventRouteContext {
  /** The simulator (or world) the request is for, and the worlds of its family. */
  sim: WatchedWorld & { readonly worlds: Worlds<WatchedWorld> }
  /** Stream limits (tests lower them). */
  stream?: Omit<EventStreamOptions, 'alive' | 'onEnd'>
}

/**
 * `/__mock/events`: live journal entries and world changes of the world a request names (Server-Sent Events).
 * Its return type is inferred, not declared: the operation types (control-operations.ts) are read from it.
 */
export function eventRoutes({ sim, stream: options = {} }: EventRouteContext) {
  return [
    defineRoute({
      method: 'GET',
      path: '/events',
      operationId: 'streamEvents',
      summary: 'Stream the live events of a world',
      description: STREAM_DESCRIPTION,
      query: eventsQuery,
      responses: { 200: { description: 'An open event stream.', contentType: 'text/event-stream', body: eventStreamText } },
      // No example of the stream itself: it never ends.
      examples: () => [{ name: 'badWorld', summary: 'A world id with a space', query: { world: 'my world' } }],
      handle({ request, query: { world } }) {
        const own = sim.worldId ?? DEFAULT_WORLD_ID
        // The header already chose this world; else the query parameter, else the cookie (which also chose this world).
        const id = request.headers.get(WORLD_HEADER) === null ? (world ?? own) : own
        const target = id === own ? sim : sim.worlds.get(id)
        if (target === undefined) throw unknownWorld(id, sim.worlds.idleMs)
        const stream = openEventStream(target, { ...options, alive: () => id === DEFAULT_WORLD_ID || sim.worlds.get(id) === target })
        return {
          status: 200,
          headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
          body: null,
          stream,
        }
      },
    }),
  ]
}
