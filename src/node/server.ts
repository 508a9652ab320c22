import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ApiError } from '../kernel/api-error.js'
import { ConfigError } from '../kernel/clock.js'
import { errorResponse } from '../kernel/error-response.js'
import { CONTROL_PREFIX, createSimulator, type Simulator, type SimulatorOptions } from '../simulator/create-simulator.js'
import { corsHeaders, preflightReply } from './cors.js'
import { DocsPage } from './docs-page.js'
import { type DispatchMode, nodeAnswerer } from './fast-path.js'
import { type WireReply, writeReply } from './wire-reply.js'

export type { DispatchMode } from './fast-path.js'

/** How much of an unread request body the server swallows before hanging up. */
const DISCARD_LIMIT = 64 * 1024 * 1024

export interface ServerOptions extends SimulatorOptions {
  /** Default 4000; 0 picks a free port (D27). */
  port?: number
  /** Default `127.0.0.1`: not reachable from other machines unless asked (D27). */
  host?: string
  /** Receives one line per request (`GET /core/users 200 0.4ms`); omit for silence. */
  log?: (line: string) => void
  /**
   * How requests reach the simulator (default `'fast'`): `'fast'` answers
   * Node's request from the route table without any Fetch object, `'direct'`
   * builds a Fetch `Request` for `sim.fetch`, `'msw'` goes through msw's
   * `getResponse` over `simulator.handlers`. All answer identically
   * (src/simulator/dispatch-paths.test.ts); bench/README.md has the figures.
   */
  dispatch?: DispatchMode
}

/** A running simulator server. */
export interface RunningServer {
  /** `http://127.0.0.1:4000` */
  readonly url: string
  readonly port: number
  readonly host: string
  readonly simulator: Simulator
  readonly server: Server
  /** Stops accepting connections, ends open ones, resolves when closed. */
  close(): Promise<void>
}

/**
 * Starts the simulator behind a Node HTTP server. Each request is answered by
 * the dispatch mode's way in (`fast` by default: Node's request straight to the
 * route table) and written in one go; nothing matched is a 404 that lists the
 * mounted areas and the closest route (D27).
 *
 * @example
 * const running = await startServer({ port: 0, seed: 1 })
 * await fetch(`${running.url}/core/products/prod-1001`)
 * await running.close()
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const simulator = createSimulator({
    ...options,
    onInternalError:
      options.onInternalError ??
      ((error, request) => {
        const reason = error instanceof Error ? error.message : String(error)
        process.stderr.write(`multi-area-mock: internal error on ${request.method} ${new URL(request.url).pathname}: ${reason}\n`)
      }),
  })
  // The whole world is seeded before the first request can arrive.
  await simulator.ready
  const server = createServer()
  server.keepAliveTimeout = 65_000
  await new Promise<void>((resolve, reject) => {
    const refuse = (error: unknown) => reject(listenError(error, host, options.port ?? 4000))
    server.once('error', refuse)
    server.listen(options.port ?? 4000, host, () => {
      server.off('error', refuse)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`

  const origin = `http://${authority}`
  const answerer = nodeAnswerer(options.dispatch ?? 'fast', simulator, origin)
  const docs = new DocsPage(CONTROL_PREFIX)
  const answer = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<WireReply> => {
    try {
      if (req.method === 'OPTIONS') return preflightReply(req)
      if (docs.handles(path)) return await docs.answer({ method: req.method ?? 'GET', path })
      // The 404 names the path as the URL parser normalised it, as the routes saw it.
      return (await answerer(req, res)) ?? errorResponse(simulator.dispatcher.notFound(req.method ?? 'GET', new URL(`${origin}${req.url}`).pathname))
    } catch (error) {
      return errorResponse(error instanceof TypeError && /url/i.test(error.message) ? malformedUrl() : error)
    }
  }
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now()
    // A request refused before its body was read (413, 415, 404...) leaves the
    // upload unread; the client would block sending it and never read our answer.
    // Discard the rest instead (up to a bound), as Node does for unread bodies.
    res.once('finish', () => {
      if (req.complete) return
      let discarded = 0
      // A body reader may still be listening (node-fetch-server queues into a
      // stream nobody reads, and pauses the request again at once).
      req.removeAllListeners('data')
      req.on('data', (chunk: Buffer) => {
        discarded += chunk.length
        if (discarded > DISCARD_LIMIT) req.socket.destroy()
      })
      req.resume()
    })
    const path = pathOf(req.url ?? '/')
    void answer(req, res, path)
      .then((reply) => {
        if (reply.status !== 0) Object.assign(reply.headers, corsHeaders(req))
        options.log?.(`${req.method} ${path} ${reply.status === 0 ? 'dropped' : reply.status} ${(performance.now() - started).toFixed(1)}ms`)
        if (!res.destroyed) writeReply(res, reply)
      })
      .catch((error: unknown) => {
        // Only writing can fail here (e.g. a header value Node refuses): a bug, not the client's.
        process.stderr.write(`multi-area-mock: could not answer ${req.method} ${path}: ${error instanceof Error ? error.message : String(error)}\n`)
        res.destroy()
      })
  })
  // Requests Node cannot even parse (header block over its limit, broken HTTP)
  // never reach the handlers; they still get a JSON error (D9), not a bare status.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy()
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW'
    const body = JSON.stringify(
      tooLarge
        ? { error: 'headers_too_large', message: 'The request line and headers are larger than the server accepts (16 KiB).' }
        : { error: 'bad_request', message: 'The request is not valid HTTP.' },
    )
    socket.end(
      `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    )
  })

  return {
    url: `http://${authority}`,
    port,
    host,
    simulator,
    server,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function malformedUrl(): ApiError {
  return new ApiError(400, 'validation_failed', 'The request URL is malformed.', { details: [{ path: 'url', message: 'is not a valid URL' }] })
}

/** The path of a request target, without the query (`/core/users?limit=5` → `/core/users`). */
function pathOf(target: string): string {
  const end = target.indexOf('?')
  return end === -1 ? target : target.slice(0, end)
}

function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException)?.code
  if (code === 'EADDRINUSE') return new ConfigError(`Port ${port} on ${host} is already in use; choose another with --port, or --port 0 for a free one.`)
  if (code === 'EACCES') return new ConfigError(`Not allowed to listen on ${host}:${port}; choose a port above 1023.`)
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new ConfigError(`Cannot listen on host "${host}": no such local address.`)
  return error instanceof Error ? error : new Error(String(error))
}
