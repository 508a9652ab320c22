import type { Reply } from '../reply.js'

/** Text gathered before it is encoded and handed on: large enough that a 25 MB document is ~400 chunks. */
const CHUNK_CHARS = 64 * 1024

/**
 * The pieces of `JSON.stringify(value)`, in order: their concatenation is
 * exactly that text. Plain objects and arrays are taken apart down to `depth`
 * levels (a property or an element per piece); anything deeper, and any value
 * with a `toJSON` or of another class, is one `JSON.stringify` call, so the
 * rules (skipped `undefined` properties, `null` for `undefined` elements,
 * escapes, number forms) are JSON's own.
 *
 * @example
 * [...jsonPieces({ users: [{ id: 'a' }, { id: 'b' }] }, 2)].join('') === JSON.stringify({ users: [{ id: 'a' }, { id: 'b' }] }) // true
 */
export function* jsonPieces(value: unknown, depth: number): Generator<string, void, undefined> {
  const parts: Array<string | Deferred> = []
  // Every array taken apart as it is read (none is short enough to write whole).
  settle(value, depth, parts, 0)
  yield* expand(parts)
}

/** The text of settled parts, each deferred array written element by element. */
function* expand(parts: ReadonlyArray<string | Deferred>): Generator<string, void, undefined> {
  for (const part of parts) {
    if (typeof part === 'string') yield part
    else yield* elementPieces(part.list, part.depth + 1)
  }
}

/** The elements of an array `depth` levels above the leaves, comma-separated, without brackets. */
function* elementPieces(value: readonly unknown[], depth: number): Generator<string, void, undefined> {
  for (let i = 0; i < value.length; ) {
    if (i > 0) yield ','
    const batch = depth === 1 ? plainRun(value, i) : 0
    if (batch > 1) {
      // Elements written whole, many at a time: one JSON call per run, its brackets dropped.
      yield JSON.stringify(value.slice(i, i + batch)).slice(1, -1)
      i += batch
      continue
    }
    const item: unknown = value[i++]
    // JSON writes `null` for what it cannot write in an array (undefined, functions).
    if (descends(item, depth - 1)) yield* jsonPieces(item, depth - 1)
    else yield JSON.stringify(item) ?? 'null'
  }
}

/** Elements written whole in one call at most: ~100 kB of text for the accounts' users. */
const RUN = 512

/**
 * How many elements from `start` can be written by one `JSON.stringify` of a
 * slice: none may have a `toJSON`, which would be called with its index in the
 * slice rather than in the array.
 */
function plainRun(list: readonly unknown[], start: number): number {
  const end = Math.min(list.length, start + RUN)
  for (let i = start; i < end; i++) {
    const item = list[i]
    if (item !== null && typeof item === 'object' && typeof (item as { toJSON?: unknown }).toJSON === 'function') return i - start
  }
  return end - start
}

/** Whether `value` is taken apart: a plain object or an array without `toJSON`, above the depth. */
function descends(value: unknown, depth: number): boolean {
  if (depth <= 0 || value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false
  if (Array.isArray(value)) return true
  // Boxed primitives, Maps, class instances: JSON's own rules, in one call.
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/** Arrays at least this long are written as a stream is read; anything smaller is written at once. */
const LAZY_ELEMENTS = 1024

/** A long array whose elements are written later: a copy of the list as it was. */
interface Deferred {
  list: readonly unknown[]
  depth: number
}

/**
 * `value` as text at once, except its arrays of `lazyAt` elements or more,
 * which are copied (the list, not its elements) and written as read. JSON
 * leaves out a property it cannot write (undefined, functions, symbols).
 */
function settle(value: unknown, depth: number, out: Array<string | Deferred>, lazyAt: number): void {
  if (Array.isArray(value) && descends(value, depth)) {
    if (value.length < lazyAt) out.push(JSON.stringify(value))
    else out.push('[', { list: value.slice(), depth: depth - 1 }, ']')
    return
  }
  if (!descends(value, depth)) {
    const text = JSON.stringify(value)
    if (text !== undefined) out.push(text)
    return
  }
  out.push('{')
  let first = true
  for (const key of Object.keys(value as object)) {
    const item = (value as Record<string, unknown>)[key]
    const deeper = descends(item, depth - 1)
    const text = deeper ? undefined : JSON.stringify(item)
    if (!deeper && text === undefined) continue
    out.push(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`)
    first = false
    if (deeper) settle(item, depth - 1, out, lazyAt)
    else out.push(text!)
  }
  out.push('}')
}

/**
 * `JSON.stringify(value)` as a stream of UTF-8 chunks, written as it is read:
 * a large document (the state of a 100,000-user world, ~25 MB) never exists as
 * one string or one buffer. Everything but the long arrays is written when the
 * stream is made, and those arrays are copied then, so the text is the value
 * as it was at that moment as long as the long arrays' elements are not changed
 * in place (records a write replaces, or copies). Pulled with backpressure: the
 * next chunk is made when the reader (a socket, a file) has taken the previous one.
 *
 * @example
 * new Response(jsonStream(sim.exportState(), 3)) // same bytes as JSON.stringify(sim.exportState())
 */
export function jsonStream(value: unknown, depth: number): ReadableStream<Uint8Array> {
  const parts: Array<string | Deferred> = []
  settle(value, depth, parts, LAZY_ELEMENTS)
  const pieces = expand(parts)
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        let text = ''
        for (;;) {
          const next = pieces.next()
          if (next.done) {
            if (text !== '') controller.enqueue(encoder.encode(text))
            controller.close()
            return
          }
          text += next.value
          if (text.length >= CHUNK_CHARS) {
            controller.enqueue(encoder.encode(text))
            return
          }
        }
      },
      cancel() {
        pieces.return()
      },
    },
    { highWaterMark: 1 },
  )
}

/**
 * A JSON reply whose body is streamed (`jsonStream`): for documents too large to
 * hold twice, such as the whole world's state. Same bytes as `json(value)`,
 * sent without `Content-Length` (chunked).
 *
 * @example
 * return streamedJson(sim.exportState(), 3)
 */
export function streamedJson(value: unknown, depth: number): Reply {
  return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: null, stream: jsonStream(value, depth) }
}
