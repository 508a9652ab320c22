import { Agent as HttpAgent, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { Dispatch } from '../../kernel/routing/dispatcher.js'
import type { ApiError } from '../../kernel/errors/api-error.js'
import { errorResponse } from '../../kernel/errors/error-response.js'
import type { Reply } from '../../kernel/http/reply.js'
import type { Upstream, UpstreamContext, UpstreamReply } from '../../simulator/pipeline/request-pipeline.js'
import type { SimulatorEngine } from '../../simulator/engine.js'
import type { TrafficAnswer } from '../../simulator/recording/recorder.js'
import { BodyCapture } from '../server/body-capture.js'
import { fromNodeRequest } from '../server/node-request.js'
import { badGateway, gatewayTimeout, pathLeavesBase } from './proxy-errors.js'
import { downstreamHeaders, upstreamRequestHeaders } from './proxy-headers.js'
import { leavesBasePath } from './proxy-path.js'
import { type ProxyTarget, upstreamUrl } from './proxy-targets.js'
import { RecordingTap } from '../recording/recording-tap.js'
import type { GateVerdict } from '../gate/request-gate.js'

/** What the server gives the proxy. */
export interface AreaProxyOptions {
  targets: ProxyTarget[]
  /** Milliseconds an upstream may stay silent (no byte) before a 504, or before a started answer is cut. */
  timeoutMs: number
  /** Reads each answer the upstream gave (`serve --record`); without it, bodies are kept only for the journal. */
  record?: (answer: TrafficAnswer) => void
  /** Whether an `Authorization` header carries the control token (`--control-token`): such a header is never sent upstream. */
  isControlToken?: ((authorization: string | undefined) => boolean) | undefined
}

/** A proxied area's answer: the upstream's (already `written`), or one made here (a fault, a 502 or 504, an unknown world) for the server to write. */
export interface ProxiedReply extends Reply {
  written: boolean
  /** For the log line: where the area's requests go. */
  upstreamHost: string
}

/** One proxied request in flight. */
interface Forwarding {
  req: IncomingMessage
  res: ServerResponse
  target: ProxyTarget
  /** The path under the area's prefix and the query, as the upstream gets them. */
  url: URL
  prefix: string
  /** The CORS headers the gate chose for this request: the server's policy, never the upstream's. */
  cors: Readonly<Record<string, string>>
}

/**
 * The real backend of a proxied area (`serve --proxy admin=https://…`) as one
 * more answerer of the simulator's pipeline: the request passes the same world
 * choice, fault rules, latency and journal as a simulated one (`forward`),
 * and only then goes upstream, its body streamed; the answer streams back
 * unchanged but for hop-by-hop and CORS headers. Only the start of each body
 * is kept, for the journal.
 *
 * @example
 * const proxy = new AreaProxy(engine, 'http://127.0.0.1:4000', { targets, timeoutMs: 30_000 })
 * const reply = proxy.answer(req, res, gate.check(req)) // undefined: not a proxied area
 */
export class AreaProxy {
  readonly #engine: SimulatorEngine
  readonly #origin: string
  readonly #options: AreaProxyOptions
  readonly #byArea: Map<string, ProxyTarget>
  // Connections to an upstream are kept open between requests, as a browser would.
  readonly #agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) }

  constructor(engine: SimulatorEngine, origin: string, options: AreaProxyOptions) {
    this.#engine = engine
    this.#origin = origin
    this.#options = options
    this.#byArea = new Map(options.targets.map((target) => [target.area, target]))
  }

  /**
   * The answer to `req` when its area is proxied, `undefined` when the
   * simulator answers it. A reply marked `written` is on the wire already.
   */
  answer(req: IncomingMessage, res: ServerResponse, verdict: GateVerdict): Promise<ProxiedReply> | undefined {
    // The route table parses the URL itself; the gate's URL is made only for a request that goes upstream.
    const dispatch = this.#engine.dispatcher.dispatch({ method: req.method ?? 'GET', url: `${this.#origin}${req.url ?? '/'}` })
    const mount = dispatch?.mount
    const target = mount === undefined ? undefined : this.#byArea.get(mount.area)
    if (target === undefined || dispatch === undefined || mount === undefined) return undefined
    // Refused before the pipeline: such a path is never journaled, faulted or sent (the upstream might resolve it above its base).
    if (leavesBasePath(verdict.path.slice(mount.prefix.length))) return Promise.resolve(refusal(pathLeavesBase(target.area), target))
    const job: Forwarding = { req, res, target, url: verdict.url, prefix: mount.prefix, cors: verdict.cors }
    const upstream: Upstream = { base: target.base.href, answer: (_request, context) => this.#stream(job, context) }
    const host = target.base.host
    return this.#engine
      .forward(fromNodeRequest(req, this.#origin), routeOf(dispatch, job), upstream)
      .then((reply) => ({ ...reply, written: (reply as Partial<UpstreamReply>).written === true, upstreamHost: host }))
  }

  /** Closes the kept upstream connections (the server is closing). */
  close(): void {
    this.#agents.http.destroy()
    this.#agents.https.destroy()
  }

  /** The request to the upstream and the answer back, both streamed; resolves once the answer is written, or with the 502/504 to write. */
  #stream(job: Forwarding, { headers: extra, captureLimit }: UpstreamContext): Promise<UpstreamReply> {
    const { req, res, target } = job
    const upstream = upstreamUrl(target.base, job.url.pathname.slice(job.prefix.length), job.url.search)
    const https = upstream.protocol === 'https:'
    const sent = new BodyCapture(captureLimit)
    const received = new BodyCapture(captureLimit)
    const record = this.#options.record
    const tap = record === undefined ? undefined : new RecordingTap()
    return new Promise<UpstreamReply>((resolve) => {
      let settled = false
      const settle = (reply: Reply, written: boolean, lengths: UpstreamReply['bodyLengths']) => {
        if (settled) return
        settled = true
        resolve({ ...reply, written, requestText: sent.text(), bodyLengths: lengths })
      }
      const outgoing = (https ? httpsRequest : httpRequest)(upstream, {
        method: req.method ?? 'GET',
        headers: upstreamRequestHeaders(req.headers, this.#options.isControlToken),
        agent: https ? this.#agents.https : this.#agents.http,
      })
      const fail = (reply: Reply) => {
        if (settled) return
        outgoing.destroy()
        // An answer already begun cannot become an error: the client sees it cut off.
        if (res.headersSent) res.destroy()
        settle(reply, res.headersSent, { request: sent.bytes })
      }
      // Idle time: no byte from the upstream for this long, before or during its answer.
      outgoing.setTimeout(this.#options.timeoutMs, () => fail(errorResponse(gatewayTimeout(target.area, target.base, this.#options.timeoutMs))))
      outgoing.on('error', (error) => fail(errorResponse(badGateway(target.area, target.base, error))))
      outgoing.on('response', (answer: IncomingMessage) => {
        const headers = downstreamHeaders(answer.rawHeaders, { ...job.cors, ...extra })
        const encoded = (answer.headers['content-encoding'] ?? 'identity') !== 'identity'
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers)
        answer.on('data', (chunk: Buffer) => {
          if (!encoded) received.add(chunk)
          tap?.response.add(chunk)
        })
        answer.pipe(res)
        answer.on('error', () => fail(errorResponse(badGateway(target.area, target.base, new Error('aborted')))))
        res.on('finish', () => {
          const body = encoded ? null : (received.text() ?? null)
          settle({ status: answer.statusCode ?? 502, headers: {}, body }, true, { request: sent.bytes, response: received.bytes })
          // Only what the upstream itself answered is recorded (a fault or a 502 made here never is).
          if (tap !== undefined && record !== undefined) {
            const url = `${this.#origin}${job.url.pathname}${job.url.search}`
            record(tap.answer({ method: req.method ?? 'GET', url, status: answer.statusCode ?? 502, encoding: answer.headers['content-encoding'] }))
          }
        })
      })
      // The client went away: stop the upstream too.
      res.on('close', () => {
        if (!res.writableFinished) fail(errorResponse(badGateway(target.area, target.base, new Error('client closed'))))
      })
      req.on('data', (chunk: Buffer) => {
        sent.add(chunk)
        tap?.request.add(chunk)
      })
      req.on('error', () => outgoing.destroy())
      req.pipe(outgoing)
    })
  }
}

/** A reply made here, before anything went upstream. */
function refusal(error: ApiError, target: ProxyTarget): ProxiedReply {
  return { ...errorResponse(error), written: false, upstreamHost: target.base.host }
}

/** The route fault rules match against: the simulated route when one has the path, else the path itself. */
function routeOf(dispatch: Dispatch, job: Forwarding): Extract<Dispatch, { kind: 'route' }> {
  if (dispatch.kind === 'route') return dispatch
  const path = job.url.pathname.slice(job.prefix.length) || '/'
  const route = { method: 'GET' as const, path, summary: 'proxied', handle: () => ({ status: 0, headers: {}, body: null }) }
  return { kind: 'route', route, params: {}, url: job.url, mount: dispatch.mount! }
}
