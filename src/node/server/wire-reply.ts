import type { ServerResponse } from 'node:http'
import { replyOf } from '../../kernel/http/fetch-adapter.js'
import type { Reply } from '../../kernel/http/reply.js'
import { statusText } from '../../kernel/http/status-text.js'
import type { EndBatch } from './end-batch.js'
import { writeStream } from './stream-reply.js'

/** A reply as the server writes it: the simulator's, or a file of the docs page (bytes). */
export interface WireReply extends Omit<Reply, 'body'> {
  body: string | Uint8Array | null
}

/**
 * What every answer under the control prefix carries, in every dispatch mode,
 * errors included: never kept by a browser or a shared cache (the world, the
 * journal, the seed), never read as another type than it declares.
 */
const CONTROL_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })

/**
 * A control answer with `Cache-Control: no-store` and
 * `X-Content-Type-Options: nosniff` added; a `Cache-Control` of its own (the
 * docs page's files, the events stream) is kept.
 *
 * @example
 * writeReply(res, isControlPath(verdict.path) ? withControlHeaders(reply) : reply, verdict.cors)
 */
export function withControlHeaders<T extends WireReply>(reply: T): T {
  return { ...reply, headers: { ...CONTROL_HEADERS, ...reply.headers } }
}

/**
 * Writes a reply in one go, the same way for every dispatch mode: the standard
 * reason phrase (`HTTP/1.1 200 OK`), headers sorted by name as Fetch `Headers`
 * iterate them, an exact `Content-Length` (never chunked: every body is
 * already whole). Status 0 is a `drop` fault: the socket is destroyed without
 * a byte of answer. `extra` headers (CORS) are added, winning over the reply's own.
 * With a `batch`, the head is written at once and the end joins the turn's
 * other answers (see `EndBatch`).
 *
 * @example
 * writeReply(res, { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' })
 */
export function writeReply(res: ServerResponse, reply: WireReply, extra?: Readonly<Record<string, string>>, batch?: EndBatch): void {
  if (reply.status === 0) return void res.socket?.destroy()
  if (reply.stream) return writeStream(res, { ...reply, headers: extra ? { ...reply.headers, ...extra } : reply.headers, stream: reply.stream })
  const own = reply.headers
  const names = Object.keys(own)
  if (extra) for (const name of Object.keys(extra)) if (own[name] === undefined) names.push(name)
  if (reply.body !== null) names.push('content-length')
  names.sort()
  const headers: Record<string, string | number> = {}
  for (const name of names) headers[name] = name === 'content-length' ? Buffer.byteLength(reply.body!) : (extra?.[name] ?? own[name]!)
  res.writeHead(reply.status, statusText(reply.status), headers)
  // Node itself leaves the body out of an answer to HEAD.
  if (batch) batch.end(res, reply.body ?? undefined)
  else res.end(reply.body ?? undefined)
}

/**
 * The reply behind a Fetch `Response`: the simulator's own when it made the
 * response (no stream read again), else read from the response.
 *
 * @example
 * writeReply(res, await wireReplyOf(await getResponse(handlers, request)))
 */
export async function wireReplyOf(response: Response): Promise<WireReply> {
  // The simulator's reply as it is, as on the fast path: made for this request
  // alone, and the `Response` holds its own copy of the headers.
  const known = replyOf(response)
  if (known) return known
  if (response.type === 'error') return { status: 0, headers: {}, body: null }
  const headers: Record<string, string> = {}
  for (const [name, value] of response.headers) headers[name] = value
  const body = response.body === null ? null : new Uint8Array(await response.arrayBuffer())
  return { status: response.status, headers, body }
}
