import { redactUrl } from '../journal/redact.js'
import type { SimulatorChange } from './change-listeners.js'
import type { JournalEntry } from '../journal/journal-entry.js'
import type { ScenarioFileEvent } from './scenario-file-event.js'

/** Bytes one client may have waiting (sent but not yet taken by its connection) before it is disconnected. */
export const DEFAULT_EVENT_BUFFER_BYTES = 1024 * 1024

/** A comment line this often keeps proxies from closing a quiet stream and finds vanished clients. */
export const DEFAULT_EVENT_HEARTBEAT_MS = 15_000

/** How long an `EventSource` waits before reconnecting, told to it in the stream's first line. */
const RETRY_MS = 1_000

/** What a stream follows: one world's changes and its request journal. */
export interface WatchedWorld {
  readonly worldId: string | null
  readonly clockFixed: boolean
  now(): string
  onChange(listener: (change: SimulatorChange) => void): () => void
  /** A watched scenario file's news (`serve --watch`), when the world has any. */
  onScenarioFile?(listener: (event: ScenarioFileEvent) => void): () => void
  readonly journal: { readonly capacity: number; watch(listener: (entry: JournalEntry) => void): () => void }
}

/** Why a stream ended: the client went away, it fell too far behind, or its world is gone. */
export type EventStreamEnd = 'closed' | 'overflow' | 'gone'

export interface EventStreamOptions {
  /** Bytes queued for a client that reads too slowly before it is disconnected (default 1 MiB). */
  bufferBytes?: number
  /** Milliseconds between heartbeat comments and world checks (default 15 s). */
  heartbeatMs?: number
  /** Checked at each heartbeat; `false` once the world was deleted or expired: the stream says `gone` and ends. */
  alive?: () => boolean
  /** Told once when the stream ends, and why. */
  onEnd?: (reason: EventStreamEnd) => void
}

/**
 * A Server-Sent Events stream of one world: `hello` first (world, clock,
 * journal capacity), then `request` with each journal entry as it is recorded
 * (redacted, as `GET /__mock/requests` shows it), `change` after each
 * change of the world (`sim.onChange`, with the clock) and `scenario-file`
 * when a watched scenario file changed (`serve --watch`). Each client has a
 * bounded queue: one that reads too slowly for `bufferBytes` is disconnected
 * (the stream errors) rather than held in memory, and an `EventSource`
 * reconnects on its own. Cancelling the stream (the client went away) stops
 * following the world at once.
 *
 * @example
 * const stream = openEventStream(sim)
 * return new Response(stream, { headers: { 'content-type': 'text/event-stream' } })
 */
export function openEventStream(world: WatchedWorld, options: EventStreamOptions = {}): ReadableStream<Uint8Array> {
  const limit = options.bufferBytes ?? DEFAULT_EVENT_BUFFER_BYTES
  const encoder = new TextEncoder()
  // biome-ignore lint/suspicious/noConfusingVoidType: the stopper is later replaced by one returning void
  let stop = () => undefined as void
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let ended = false
        const end = (reason: EventStreamEnd) => {
          if (ended) return
          ended = true
          unwatch()
          unchange()
          unfile?.()
          clearInterval(timer)
          options.onEnd?.(reason)
        }
        stop = () => end('closed')
        const send = (text: string) => {
          if (ended) return
          const bytes = encoder.encode(text)
          const queued = limit - (controller.desiredSize ?? 0)
          // A first event larger than the bound still goes out; a client behind by more than it does not stay.
          if (queued > 0 && queued + bytes.byteLength > limit) {
            end('overflow')
            controller.error(new Error(`The events client read too slowly: more than ${limit} bytes were waiting for it.`))
            return
          }
          controller.enqueue(bytes)
        }
        const clock = () => ({ now: world.now(), fixed: world.clockFixed })
        const unwatch = world.journal.watch((entry) => send(frame('request', entry)))
        const unchange = world.onChange((change) => send(frame('change', { ...change, ...('url' in change ? { url: redactUrl(change.url) } : {}), clock: clock() })))
        const unfile = world.onScenarioFile?.((event) => send(frame('scenario-file', event)))
        const timer = setInterval(() => {
          if (options.alive?.() === false) {
            send(frame('gone', { world: world.worldId ?? 'default' }))
            end('gone')
            controller.close()
          } else send(': ping\n\n')
        }, options.heartbeatMs ?? DEFAULT_EVENT_HEARTBEAT_MS)
        // Never what keeps a Node process running.
        ;(timer as { unref?: () => void }).unref?.()
        send(`retry: ${RETRY_MS}\n${frame('hello', { world: world.worldId ?? 'default', clock: clock(), journal: { capacity: world.journal.capacity } })}`)
      },
      cancel() {
        stop()
      },
    },
    { highWaterMark: limit, size: (chunk) => chunk.byteLength },
  )
}

/** One event: a name and one line of JSON (`JSON.stringify` never writes a line break). */
function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
}
