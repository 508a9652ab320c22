import { createServer, type Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequestListener } from '@remix-run/node-fetch-server'
import { getResponse } from 'msw'
import { ApiError } from '../kernel/api-error.js'
import { ConfigError } from '../kernel/clock.js'
import { errorResponse } from '../kernel/error-response.js'
import { CONTROL_PREFIX, createSimulator, type Simulator, type SimulatorOptions } from '../simulator/create-simulator.js'
import { type ClientError, clientErrorReply } from './client-error.js'
import { controlTokenGuard } from './control-token.js'
import { corsHeaders, preflightResponse } from './cors.js'
import { DocsPage } from './docs-page.js'

/** How much of an unread request body the server swallows before hanging up. */
const DISCARD_LIMIT = 64 * 1024 * 1024

/** The same after a 413: the body was refused for its size and may never end, so stop sooner. */
const TOO_LARGE_DISCARD_LIMIT = 4 * 1024 * 1024

/** Default `headersTimeout`: a client gets this long to send the request line and headers. */
export const DEFAULT_HEADERS_TIMEOUT = 10_000

/** Default `requestTimeout`: a client gets this long to send a whole request, body included. */
export const DEFAULT_REQUEST_TIMEOUT = 30_000

/** Status text of the stand-in response that tells the server to drop the connection (a `drop` fault). */
const DROP = 'multi-area-mock: drop the connection'

/**
 * A dropped connection must close the socket without a byte of answer. The
 * handler only sees Fetch objects, so it answers a stand-in whose status text
 * is `DROP`, and the response object destroys the socket instead of writing it.
 */
class SimulatorResponse extends ServerResponse {
  override writeHead(statusCode: number, ...rest: any[]): this {
    if (rest[0] === DROP) {
      this.req.socket.destroy()
      return this
    }
    return (ServerResponse.prototype.writeHead as (...args: unknown[]) => this).call(this, statusCode, ...rest)
  }
}

export interface ServerOptions extends SimulatorOptions {
  /** Default 4000; 0 picks a free port (D27). */
  port?: number
  /** Default `127.0.0.1`: not reachable from other machines unless asked (D27). */
  host?: string
  /** Receives one line per request (`GET /core/users 200 0.4ms`); omit for silence. */
  log?: (line: string) => void
  /**
   * How requests reach the simulator: `'msw'` through msw's `getResponse` over
   * `simulator.handlers`, `'direct'` straight to the same route table and
   * resolvers (no per-request msw machinery; see bench/README.md for the
   * measured difference). Both answer identically (test/dispatch-paths.test.ts).
   */
  dispatch?: DispatchMode
  /**
   * When set, every `/__mock/*` request must carry `Authorization: Bearer <controlToken>`
   * (401 otherwise): for a server other machines can reach (`host: '0.0.0.0'`).
   */
  controlToken?: string
  /** Milliseconds a client may take to send the request line and headers (default 10 s); then 408 and the connection is closed. */
  headersTimeout?: number
  /** Milliseconds a client may take to send a whole request, body included (default 30 s); then 408 and the connection is closed. */
  requestTimeout?: number
}

export type DispatchMode = 'msw' | 'direct'

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
 * Starts the simulator behind a Node HTTP server. Every request becomes a
 * Fetch `Request`, is answered by msw's `getResponse` over the simulator's
 * handlers, and the `Response` is streamed back; nothing matched is a 404 that
 * lists the mounted areas and the closest route (D27).
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
  const headersTimeout = options.headersTimeout ?? DEFAULT_HEADERS_TIMEOUT
  const requestTimeout = options.requestTimeout ?? Math.max(DEFAULT_REQUEST_TIMEOUT, headersTimeout)
  if (headersTimeout > requestTimeout) {
    throw new ConfigError(`The headers timeout (${headersTimeout} ms) must not be longer than the request timeout (${requestTimeout} ms), which includes it.`)
  }
  const server = createServer({
    ServerResponse: SimulatorResponse,
    headersTimeout,
    requestTimeout,
    // Node looks for late clients this often (30 s by default, longer than the timeouts themselves).
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, headersTimeout / 4, requestTimeout / 4)),
  })
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

  const direct = (options.dispatch ?? 'msw') === 'direct'
  const refuseControl = options.controlToken === undefined ? undefined : controlTokenGuard(options.controlToken)
  const docs = new DocsPage(CONTROL_PREFIX)
  const handle = async (request: Request): Promise<Response> => {
    const started = performance.now()
    let response: Response
    const refused = refuseControl && isGuarded(pathOf(request)) ? refuseControl(request) : undefined
    if (request.method === 'OPTIONS') response = preflightResponse(request)
    else if (refused) response = withHeaders(errorResponse(refused), corsHeaders(request))
    else if (docs.handles(pathOf(request))) response = withHeaders(await docs.answer(request), corsHeaders(request))
    else {
      const found = direct ? simulator.fetch(request) : getResponse(simulator.handlers, request)
      response = (await found) ?? errorResponse(simulator.dispatcher.notFound(request.method, pathOf(request)))
      // A network error (`Response.error()`, status 0) is a `drop` fault: hang up.
      response = response.type === 'error' ? new Response(null, { status: 500, statusText: DROP }) : withHeaders(response, corsHeaders(request))
    }
    const status = response.statusText === DROP ? 'dropped' : response.status
    options.log?.(`${request.method} ${pathOf(request)} ${status} ${(performance.now() - started).toFixed(1)}ms`)
    return response
  }
  const listener = createRequestListener(handle, {
    host: authority,
    onError: (error) =>
      error instanceof TypeError && /url/i.test(error.message)
        ? errorResponse(new ApiError(400, 'validation_failed', 'The request URL is malformed.', { details: [{ path: 'url', message: 'is not a valid URL' }] }))
        : errorResponse(error),
  })
  /** The response being written on each socket, so a late client error never corrupts it. */
  const answering = new WeakMap<object, ServerResponse>()
  server.on('request', (req, res) => {
    answering.set(req.socket, res)
    // A request refused before its body was read (413, 415, 404...) leaves the
    // upload paused; the client would block sending it and never read our answer.
    // Discard the rest instead (up to a bound), as Node does for unread bodies.
    res.once('finish', () => {
      if (req.complete) return
      let discarded = 0
      const limit = res.statusCode === 413 ? TOO_LARGE_DISCARD_LIMIT : DISCARD_LIMIT
      // node-fetch-server's own listener would queue the rest into a body stream
      // nobody reads and pause the request again at once: the connection would
      // stay stuck and the client's next request on it would never be answered.
      req.removeAllListeners('data')
      req.on('data', (chunk: Buffer) => {
        discarded += chunk.length
        if (discarded > limit) req.socket.destroy()
      })
      req.resume()
    })
    listener(req, res)
  })
  // Requests Node cannot even parse (header block over its limit, broken HTTP)
  // or that come too slowly never reach the handlers; they still get a JSON
  // error (D9) with the CORS headers, unless an answer has begun on the socket.
  server.on('clientError', (error: ClientError, socket) => {
    const current = answering.get(socket)
    const midAnswer = current !== undefined && current.headersSent && !current.writableFinished
    const reply = socket.writable && !midAnswer ? clientErrorReply(error) : undefined
    if (reply === undefined) return void socket.destroy()
    socket.end(reply, () => socket.destroy())
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

function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value)
    return response
  } catch {
    // Some responses have immutable headers; copy into a new one.
    const copy = new Response(response.body, response)
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value)
    return copy
  }
}

/** What the control token guards: the control API, but not its description (`openapi.json`, the docs page), which holds nothing of the world. */
function isGuarded(path: string): boolean {
  if (path !== CONTROL_PREFIX && !path.startsWith(`${CONTROL_PREFIX}/`)) return false
  return path !== `${CONTROL_PREFIX}/openapi.json` && path !== `${CONTROL_PREFIX}/docs` && !path.startsWith(`${CONTROL_PREFIX}/docs/`)
}

function pathOf(request: Request): string {
  const url = request.url
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const end = url.indexOf('?', start)
  return start === -1 ? '/' : url.slice(start, end === -1 ? undefined : end)
}

function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException)?.code
  if (code === 'EADDRINUSE') return new ConfigError(`Port ${port} on ${host} is already in use; choose another with --port, or --port 0 for a free one.`)
  if (code === 'EACCES') return new ConfigError(`Not allowed to listen on ${host}:${port}; choose a port above 1023.`)
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new ConfigError(`Cannot listen on host "${host}": no such local address.`)
  return error instanceof Error ? error : new Error(String(error))
}
