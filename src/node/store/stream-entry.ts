import * as z from 'zod'
import type { Command } from '../../simulator/log/command.js'
import { OVERSIZED, STREAM_FIELD } from './redis-scripts.js'

/** A command as the shared stream holds it: with the process that made it (`origin`). */
export type StreamCommand = Command & { origin?: string }

/** The methods of a request that changes a world: a GET (or HEAD, OPTIONS) is never a command. */
export const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const

/** The largest body a route takes whatever `--body-limit` says: `PUT /__mock/state`'s (src/simulator/control/control-routes.ts). */
const STATE_BODY_BYTES = 64 * 1024 * 1024

/**
 * The longest entry (bytes) a replica reads, for worlds whose bodies are
 * at most `bodyBytes`: twice the largest body a route takes (a body kept
 * inside JSON text escapes each `"` and `\`), and 1 MiB for the rest (URL,
 * sealed passwords). The same on every replica: the body limit is in the
 * store's fingerprint.
 *
 * @example
 * entryLimit(1024 * 1024) // 135266304: twice 64 MiB, and 1 MiB
 */
export function entryLimit(bodyBytes: number): number {
  return 2 * Math.max(bodyBytes, STATE_BODY_BYTES) + 1024 * 1024
}

/** A field's message: `is missing` when it is, else `message`. */
const said = (message: string) => ({ error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is missing' : message) })

/**
 * An entry's length in UTF-8 bytes, as Redis counts it, once it may be over
 * `max` (a shorter one is not measured: 0).
 *
 * @example
 * entryBytes('{"a":"é"}', 0) // 10
 */
export function entryBytes(text: string, max: number): number {
  // A UTF-16 unit is 1 to 3 bytes.
  return text.length * 3 <= max ? 0 : Buffer.byteLength(text)
}

/** A world's id, as `x-mock-world` takes it (src/simulator/worlds/worlds.ts): also safe in a Redis key. */
const worldId = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, said('is no world id (1 to 64 letters, digits, ".", "_" or "-")'))
/** What a `Date` can hold (±8.64e15 ms): applying a command pins the clock there. */
const DATELESS = 'is no instant a date can hold'
const instant = z.number().min(-8.64e15, said(DATELESS)).max(8.64e15, said(DATELESS))
const origin = z.string().max(100).optional()
const absoluteUrl = z.url({ protocol: /^https?$/, ...said('is no absolute http URL') })

/** A write request a replica accepted. */
const writeCommand = z.strictObject({
  world: worldId.nullable(),
  method: z.enum(WRITE_METHODS, said(`is no write method (${WRITE_METHODS.join(', ')})`)),
  url: absoluteUrl,
  body: z.string().optional(),
  sealed: z.record(z.string(), z.string()).optional(),
  at: instant,
  origin,
})

/** An isolated world used (`touch`) or gone idle (`expire`). */
const expiryCommand = z.strictObject({
  world: worldId,
  method: z.literal(''),
  url: z.literal(''),
  at: instant,
  origin,
  kind: z.enum(['touch', 'expire']),
})

/** The fault rules deciding for a request, of any method. */
const faultCommand = z.strictObject({
  world: worldId.nullable(),
  method: z.string().regex(/^[A-Za-z]{1,20}$/, said('is no HTTP method')),
  url: absoluteUrl,
  at: instant,
  origin,
  kind: z.literal('fault'),
})

const KINDS = { touch: expiryCommand, expire: expiryCommand, fault: faultCommand } as const

/** What an entry of the stream holds: a command, or why it is none. */
export type EntryReading = { command: StreamCommand } | { reason: string }

export interface ReadEntryOptions {
  /** The longest entry read, in bytes (`entryLimit`). */
  maxBytes: number
  /** Whether a write's route changes a world (`isCommand` of its dispatch): a request that changes none is no command. */
  changesWorld?: (command: Command) => boolean
}

/**
 * Reads one entry of the shared stream: the command a replica made, checked
 * whole (a write method, an absolute http URL, a string body, sealed
 * passwords as strings, an instant a date can hold), or one line saying why
 * it is none. Someone else may write into Redis: an entry that is no command
 * is skipped, by every replica alike (the check depends on the entry and on
 * options every replica shares), so the worlds stay the same everywhere.
 *
 * @example
 * const read = readStreamEntry(entry, { maxBytes: entryLimit(bodyBytes) })
 * if ('reason' in read) report(`skipped ${id}: ${read.reason}`)
 */
export function readStreamEntry(text: string, options: ReadEntryOptions): EntryReading {
  // Redis sends an entry over the limit as OVERSIZED and its length.
  const bytes = text.startsWith(OVERSIZED) ? Number(text.slice(OVERSIZED.length)) : entryBytes(text, options.maxBytes)
  if (bytes > options.maxBytes) return { reason: `it is ${bytes} bytes long, over the ${options.maxBytes} an entry may hold` }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { reason: text === '' ? `it has no text in its field "${STREAM_FIELD}"` : 'it is not JSON' }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { reason: 'it is not a JSON object' }
  const kind = (value as { kind?: unknown }).kind
  if (kind !== undefined && !(typeof kind === 'string' && Object.hasOwn(KINDS, kind))) return { reason: 'its kind is none of touch, expire or fault' }
  const schema = kind === undefined ? writeCommand : KINDS[kind as keyof typeof KINDS]
  const parsed = schema.safeParse(value, { error: describeIssue })
  if (!parsed.success) return { reason: parsed.error.issues.slice(0, 3).map(issueLine).join('; ') }
  const command = parsed.data as StreamCommand
  if (kind === undefined && options.changesWorld?.(command) === false) return { reason: `${command.method} ${new URL(command.url).pathname} changes no world` }
  return { command }
}

/** The project's words for zod's issues about a foreign entry: what is wrong, never the value itself. */
function describeIssue(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'invalid_type')
    return issue.input === undefined
      ? 'is missing'
      : `is ${typeName(issue.input)}, not ${Object.hasOwn(EXPECTED, issue.expected) ? typeName(EXPECTED[issue.expected]) : issue.expected}`
  if (issue.code === 'unrecognized_keys')
    return `has a key no command has: ${issue.keys
      .slice(0, 3)
      .map((key) => JSON.stringify(key.slice(0, 40)))
      .join(', ')}`
  if (issue.code === 'invalid_value') return 'is not the value a command has there'
  return undefined
}

function issueLine(issue: z.core.$ZodIssue): string {
  return `${issue.path.map(String).join('.') || 'it'} ${issue.message}`
}

/** A value of each type zod expects here, to name it. */
const EXPECTED: Record<string, unknown> = { string: '', number: 0, object: {}, record: {}, array: [], null: null }

function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}
