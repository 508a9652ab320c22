import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ApiError } from '../../kernel/errors/api-error.js'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { parseOptions } from '../../kernel/options/parse-options.js'
import { errorResponse } from '../../kernel/errors/error-response.js'
import { createSimulator } from '../../simulator/create-simulator.js'
import { CONTROL_PREFIX, type Simulator } from '../../simulator/simulator.js'
import { type ClientError, clientErrorReply } from './client-error.js'
import { carriesControlToken, controlTokenGuard } from '../gate/control-token.js'
import { CorsPolicy, NO_CORS } from '../gate/cors.js'
import { HostPolicy } from '../gate/host-policy.js'
import { type GateVerdict, isControlPath, pathOf, RequestGate } from '../gate/request-gate.js'
import { DocsPage } from '../pages/docs-page.js'
import { InspectorPage } from '../pages/inspector-page.js'
import { StateFile } from '../state-file/state-file.js'
import { joinReplicas, worldFingerprint } from '../store/replica-store.js'
import { simulatorOptionsSchema } from '../../simulator/options.js'
import { DEFAULT_REQUEST_TIMEOUT, type ServerOptions, serverOptionsSchema } from './server-options.js'
import { nodeAnswerer } from './fast-path.js'
import { type WireReply, withControlHeaders, writeReply } from './wire-reply.js'
import { AreaProxy, type ProxiedReply } from '../proxy/area-proxy.js'
import { engineOf } from '../../simulator/engine.js'
import { EndBatch } from './end-batch.js'
import { proxyTargets } from '../proxy/proxy-targets.js'
import { type RecordingFile, TrafficRecording } from '../recording/traffic-recording.js'
import { applyReplay, planReplay, type ReplayedBundle } from '../replay/server-replay.js'

export type { DispatchMode } from './fast-path.js'
export type { ServerOptions } from './server-options.js'

/** Options of the server alone: replicas may differ in them (every other option shapes the worlds they share). */
const SERVER_ONLY: ReadonlySet<string> = new Set(Object.keys(serverOptionsSchema.shape).filter((key) => !(key in simulatorOptionsSchema.shape)))

/** How much of an unread request body the server swallows before hanging up. */
const DISCARD_LIMIT = 64 * 1024 * 1024

/** The same after a 413: the body was refused for its size and may never end, so stop sooner. */
const TOO_LARGE_DISCARD_LIMIT = 4 * 1024 * 1024

/** A running simulator server. */
export interface RunningServer {
  /** `http://127.0.0.1:4000` */
  readonly url: string
  readonly port: number
  readonly host: string
  readonly simulator: Simulator
  readonly server: Server
  /** Absolute path of the state file, when the world is kept in one (`stateFile`). */
  readonly stateFile: string | null
  /** The store shared with other replicas (`store`), without its password. */
  readonly store: string | null
  /** The recording of the proxied areas' answers (`record`): its file, and what the last save wrote. */
  readonly recording: RecordingFile | null
  /** The bundle the world was rebuilt from (`replay`): its file, world, version, and the commands applied. */
  readonly replayed: ReplayedBundle | null
  /** Stops accepting connections, ends open ones, saves the state file and the recording (if any), resolves when closed. */
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
  const {
    host,
    port: wanted,
    dispatch,
    controlToken,
    headersTimeout,
    requestTimeout: requestOption,
    log,
    proxy: proxyOption,
    proxyTimeout,
    stateFile: stateFilePath,
    record: recordPath,
    replay: replayPath,
    replayUntil,
    store: storeUrl,
    corsOrigins,
    allowedHosts,
  } = parseOptions(serverOptionsSchema, options)
  if (replayUntil !== undefined && replayPath === undefined) throw new ConfigError('--replay-until needs --replay: it stops the replay of a bundle before one of its commands.')
  if (replayPath !== undefined && (stateFilePath !== undefined || storeUrl !== undefined))
    throw new ConfigError('--replay starts from the world of a bundle: not with --state-file or --store, which keep a world of their own.')
  // Read and checked before anything is made: the bundle's options make the simulator.
  const plan = replayPath === undefined ? undefined : await planReplay(replayPath, options)
  const simulator = createSimulator({
    ...(plan?.options ?? options),
    onInternalError:
      options.onInternalError ??
      ((error, request) => {
        const reason = error instanceof Error ? error.message : String(error)
        process.stderr.write(`multi-area-mock: internal error on ${request.method} ${new URL(request.url).pathname}: ${reason}\n`)
      }),
  })
  // The whole world is seeded (or loaded from its file) before the first request can arrive.
  await simulator.ready
  // Rebuilt before listening: the first request sees the bundle's world.
  const replayed = plan === undefined ? null : await applyReplay(simulator, plan, replayUntil)
  // Checked before listening: a bad proxy URL fails the start, not a request.
  const proxied = proxyTargets(
    proxyOption ?? {},
    simulator.areas.map((area) => area.id),
  )
  if (recordPath !== undefined && proxied.length === 0)
    throw new ConfigError(
      "--record needs --proxy: it records what the proxied areas' real backends answer, e.g. --proxy admin=https://users.example.com/api --record recorded.json.",
    )
  const recording =
    recordPath === undefined
      ? undefined
      : await TrafficRecording.open(
          engineOf(simulator),
          plan?.options ?? options,
          proxied.map((target) => target.area),
          recordPath,
        )
  if (stateFilePath !== undefined && storeUrl !== undefined)
    throw new ConfigError('--state-file and --store both keep the worlds: choose one (the store keeps them for every replica).')
  const requestTimeout = requestOption ?? Math.max(DEFAULT_REQUEST_TIMEOUT, headersTimeout)
  if (headersTimeout > requestTimeout) {
    throw new ConfigError(`The headers timeout (${headersTimeout} ms) must not be longer than the request timeout (${requestTimeout} ms), which includes it.`)
  }
  const stateFile = stateFilePath === undefined ? undefined : new StateFile(simulator, stateFilePath)
  await stateFile?.load()
  // Joined before listening: a replica answers only once it holds the shared worlds.
  // Fingerprinted checked, defaults filled in: `--journal-size 1000` and no flag are the same world.
  const fingerprint = (salt: string) => worldFingerprint(parseOptions(simulatorOptionsSchema, options), SERVER_ONLY, salt)
  const replica = storeUrl === undefined ? undefined : await joinReplicas(simulator, { url: storeUrl, fingerprint })
  const server = createServer({
    headersTimeout,
    requestTimeout,
    // Node looks for late clients this often (30 s by default, longer than the timeouts themselves).
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, headersTimeout / 4, requestTimeout / 4)),
    // A request without Host gets our JSON 400 (RequestGate), not Node's bare one.
    requireHostHeader: false,
  })
  server.keepAliveTimeout = 65_000
  await new Promise<void>((resolve, reject) => {
    const refuse = (error: unknown) => reject(listenError(error, host, wanted))
    server.once('error', refuse)
    server.listen(wanted, host, () => {
      server.off('error', refuse)
      resolve()
    })
  }).catch(async (error: unknown) => {
    // Not listening after all: let go of the store's connection, or the process would never end.
    await replica?.close()
    throw error
  })
  const { port } = server.address() as AddressInfo
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`

  const origin = `http://${authority}`
  const engine = engineOf(simulator)
  const answerer = nodeAnswerer(dispatch, engine, origin)
  const docs = new DocsPage(CONTROL_PREFIX)
  // The control token is this server's secret: never sent to a real backend.
  const isControlToken = controlToken === undefined ? undefined : carriesControlToken(controlToken)
  const proxy = proxied.length === 0 ? undefined : new AreaProxy(engine, origin, { targets: proxied, timeoutMs: proxyTimeout, isControlToken, record: recording?.record })
  const inspector = new InspectorPage(CONTROL_PREFIX, { stateFile: stateFile?.path ?? null, controlToken: controlToken !== undefined })
  const refuseControl = controlToken === undefined ? undefined : controlTokenGuard(controlToken)
  const cors = new CorsPolicy(corsOrigins)
  const gate = new RequestGate({ hosts: new HostPolicy(allowedHosts ?? [], host), cors, origin, isPublic: (path) => isPublic(path, docs, inspector) })
  const batch = new EndBatch()
  /** The gate's refusals, a preflight, the control token, then the docs, the inspector, a proxied area or the simulator. */
  const answer = async (req: IncomingMessage, res: ServerResponse, verdict: GateVerdict): Promise<WireReply | ProxiedReply> => {
    if (verdict.refused) return errorResponse(verdict.refused)
    const method = req.method ?? 'GET'
    // A preflight never carries credentials (Fetch standard), so it cannot show the token; it changes nothing.
    if (method === 'OPTIONS') return cors.preflight(headerText(req.headers.origin) ?? null, verdict.vouchingHost, headerText(req.headers['access-control-request-headers']))
    const refused = refuseControl && verdict.guarded ? refuseControl(req.headers.authorization) : undefined
    if (refused) return errorResponse(refused)
    const path = verdict.path
    if (docs.handles(path)) return await docs.answer({ method, path })
    if (inspector.handles(path)) return await inspector.answer({ method, path })
    // Proxied areas (`--proxy`) answer from their upstream, past the same gate and token, through the same pipeline.
    const proxiedReply = proxy?.answer(req, res, verdict)
    if (proxiedReply) return await proxiedReply
    return (await answerer(req, res)) ?? errorResponse(engine.dispatcher.notFound(method, path))
  }
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    ;(req.socket as AnsweredSocket)[ANSWERING] = res
    const started = performance.now()
    let verdict: GateVerdict
    try {
      verdict = gate.check(req)
    } catch {
      verdict = { path: '/', url: new URL(origin), guarded: false, cors: NO_CORS, refused: malformedUrl() }
    }
    // The log shows the path as sent, so a refused trick (`/core/../__mock/state 400`) reads as what it was.
    const path = pathOf(req.url ?? '/')
    void answer(req, res, verdict)
      .catch((error: unknown): WireReply => errorResponse(error))
      .then((reply) => {
        const upstream = 'upstreamHost' in reply ? ` (proxied to ${reply.upstreamHost})` : ''
        log?.(`${req.method} ${path} ${reply.status === 0 ? 'dropped' : reply.status} ${(performance.now() - started).toFixed(1)}ms${upstream}`)
        if (res.destroyed || ('written' in reply && reply.written)) return
        writeReply(res, isControlPath(verdict.path) ? withControlHeaders(reply) : reply, reply.status === 0 ? undefined : verdict.cors, batch)
        // A request refused before its body was read (413, 415, 404...) leaves the
        // upload unread; the client would block sending it and never read our answer.
        if (!req.complete) discardRest(req, res.statusCode === 413 ? TOO_LARGE_DISCARD_LIMIT : DISCARD_LIMIT)
      })
      .catch((error: unknown) => {
        // Only writing can fail here (e.g. a header value Node refuses): a bug, not the client's.
        process.stderr.write(`multi-area-mock: could not answer ${req.method} ${path}: ${error instanceof Error ? error.message : String(error)}\n`)
        res.destroy()
      })
  })
  // Requests Node cannot even parse (header block over its limit, broken HTTP)
  // or that come too slowly never reach the handlers; they still get a JSON
  // error (D9) with the CORS headers, unless an answer has begun on the socket.
  server.on('clientError', (error: ClientError, socket) => {
    // An answer made earlier in this turn goes out whole first: its head alone would look like one cut short.
    batch.flush()
    const current = (socket as AnsweredSocket)[ANSWERING]
    const midAnswer = current?.headersSent && !current.writableFinished
    const reply = socket.writable && !midAnswer ? clientErrorReply(error, cors) : undefined
    if (reply === undefined) return void socket.destroy()
    socket.end(reply, () => socket.destroy())
  })
  stateFile?.attach()
  engine.family.recording = recording

  return {
    url: `http://${authority}`,
    port,
    host,
    simulator,
    server,
    stateFile: stateFile?.path ?? null,
    store: replica?.store ?? null,
    async close() {
      proxy?.close()
      batch.flush()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await stateFile?.close()
      await replica?.close()
      // Last: every answer the upstream gave is in it.
      await recording?.save()
    },
    recording: recording ?? null,
    replayed,
  }
}

/**
 * The response being written on a socket, so a late client error never corrupts
 * it. On the socket because Node's `clientError` event hands over the socket
 * alone; a property, not a WeakMap: no GC bookkeeping per request.
 */
const ANSWERING = Symbol('answering')
type AnsweredSocket = object & { [ANSWERING]?: ServerResponse }

/**
 * Swallows the rest of an unread upload (up to `limit` bytes, then hangs up),
 * as Node does for unread bodies; a body reader still listening (a Fetch body
 * stream nobody reads pauses the request again at once) is removed first.
 */
function discardRest(req: IncomingMessage, limit: number): void {
  let discarded = 0
  req.removeAllListeners('data')
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length
    if (discarded > limit) req.socket.destroy()
  })
  req.resume()
}

function malformedUrl(): ApiError {
  return new ApiError(400, 'validation_failed', 'The request URL is malformed.', { details: [{ path: 'url', message: 'is not a valid URL' }] })
}

/** Paths under the control prefix that need no token: they hold nothing of the world (the docs page, the OpenAPI document, the inspector's page and files). */
function isPublic(path: string, docs: DocsPage, inspector: InspectorPage): boolean {
  return path === `${CONTROL_PREFIX}/openapi.json` || docs.handles(path) || inspector.isPublic(path)
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value
}

function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException)?.code
  if (code === 'EADDRINUSE') return new ConfigError(`Port ${port} on ${host} is already in use; choose another with --port, or --port 0 for a free one.`)
  if (code === 'EACCES') return new ConfigError(`Not allowed to listen on ${host}:${port}; choose a port above 1023.`)
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new ConfigError(`Cannot listen on host "${host}": no such local address.`)
  return error instanceof Error ? error : new Error(String(error))
}
