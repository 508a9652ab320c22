import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { parseOptions } from '../../kernel/options/parse-options.js'
import { errorResponse } from '../../kernel/errors/error-response.js'
import { createSimulator } from '../../simulator/create-simulator.js'
import { CONTROL_PREFIX, type Simulator } from '../../simulator/simulator.js'
import { carriesControlToken, controlTokenGuard } from '../gate/control-token.js'
import { CorsPolicy } from '../gate/cors.js'
import { HostPolicy } from '../gate/host-policy.js'
import { RequestGate } from '../gate/request-gate.js'
import { DocsPage } from '../pages/docs-page.js'
import { InspectorPage } from '../pages/inspector-page.js'
import { StateFile } from '../state-file/state-file.js'
import { joinReplicas, worldFingerprint } from '../store/replica-store.js'
import { simulatorOptionsSchema } from '../../simulator/options.js'
import { DEFAULT_REQUEST_TIMEOUT, type ServerOptions, serverOptionsSchema } from './server-options.js'
import { nodeAnswerer } from './fast-path.js'
import { AreaProxy } from '../proxy/area-proxy.js'
import { engineOf } from '../../simulator/engine.js'
import { EndBatch } from './end-batch.js'
import { proxyTargets } from '../proxy/proxy-targets.js'
import { type RecordingFile, TrafficRecording } from '../recording/traffic-recording.js'
import { applyReplay, planReplay, type ReplayedBundle } from '../replay/server-replay.js'
import { listen } from './listen.js'
import { type Answerer, listenForRequests } from './request-listener.js'

export type { DispatchMode } from './fast-path.js'
export type { ServerOptions } from './server-options.js'

/** Options of the server alone: replicas may differ in them (every other option shapes the worlds they share). */
const SERVER_ONLY: ReadonlySet<string> = new Set(Object.keys(serverOptionsSchema.shape).filter((key) => !(key in simulatorOptionsSchema.shape)))

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
  await listen(server, wanted, host).catch(async (error: unknown) => {
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
  const inspector = new InspectorPage(CONTROL_PREFIX, {
    stateFile: stateFile?.path ?? null,
    controlToken: controlToken !== undefined,
    store: replica?.store ?? null,
    replayed,
  })
  const refuseControl = controlToken === undefined ? undefined : controlTokenGuard(controlToken)
  const cors = new CorsPolicy(corsOrigins)
  const gate = new RequestGate({ hosts: new HostPolicy(allowedHosts ?? [], host), cors, origin, isPublic: (path) => isPublic(path, docs, inspector) })
  const batch = new EndBatch()
  /** The gate's refusals, a preflight, the control token, then the docs, the inspector, a proxied area or the simulator. */
  const answer: Answerer = async (req, res, verdict) => {
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
  listenForRequests(server, { gate, origin, cors, batch, answer, log })
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

/** Paths under the control prefix that need no token: they hold nothing of the world (the docs page, the OpenAPI document, the inspector's page and files). */
function isPublic(path: string, docs: DocsPage, inspector: InspectorPage): boolean {
  return path === `${CONTROL_PREFIX}/openapi.json` || docs.handles(path) || inspector.isPublic(path)
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value
}
