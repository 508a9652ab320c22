import type { ServerResponse } from 'node:http'
import { statusText } from '../../kernel/http/status-text.js'

/** What `writeStream` writes: a status, headers and a body that keeps coming. */
export interface StreamReply {
  status: number
  headers: Record<string, string>
  stream: ReadableStream<Uint8Array>
}

/**
 * Writes a reply whose body keeps coming (Server-Sent Events): the status and
 * headers at once, then each chunk as the stream gives it, no `Content-Length`.
 * It waits for the socket to drain before taking the next chunk, so a slow
 * client's backlog stays in the stream's own bounded queue (see
 * `openEventStream`), never in Node's buffers; when the stream gives up on
 * the client (errors), the connection is destroyed. A client that leaves
 * cancels the stream.
 *
 * @example
 * writeStream(res, { status: 200, headers: { 'content-type': 'text/event-stream' }, stream })
 */
export function writeStream(res: ServerResponse, reply: StreamReply): void {
  const headers: Record<string, string> = {}
  for (const name of Object.keys(reply.headers).sort()) headers[name] = reply.headers[name]!
  res.writeHead(reply.status, statusText(reply.status), headers)
  res.flushHeaders()
  const reader = reply.stream.getReader()
  let gone = false
  res.once('close', () => {
    gone = true
    reader.cancel().catch(() => undefined)
  })
  const drained = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done)
        res.off('close', done)
        resolve()
      }
      res.on('drain', done)
      res.on('close', done)
    })
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done || gone) break
        if (!res.write(value)) await drained()
      }
      if (!gone) res.end()
    } catch {
      res.destroy()
    }
  })()
}
