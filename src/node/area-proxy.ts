import { Agent as HttpAgent, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { Dispatch } from '../kernel/routing/dispatcher.js'
import { errorResponse } from '../kernel/errors/error-response.js'
import type { Reply } from '../kernel/http/reply.js'
import type { SimRequest } from '../kernel/http/sim-request.js'
import type { Simulator } from '../simulator/create-simulator.js'
import { FaultInjector, faultResponse } from '../simulator/faults.js'
import { Journal } from '../simulator/journal.js'
import { requestedWorld } from '../simulator/worlds.js'
import { BodyCapture } from './body-capture.js'
import type { GateVerdict } from './request-gate.js'
import { fromNodeRequest } from './node-request.js'
import { badGateway, gatewayTimeout } from './proxy-errors.js'
import { downstreamHeaders, upstreamRequestHeaders } from './proxy-headers.js'
import { type ProxyTarget, upstreamUrl } from './proxy-targets.js'
import { writeReply } from './wire-reply.js'

/** What the server gives the proxy. */
export interface AreaProxyOptions {
  targets: ProxyTarget[]
  /** Milliseconds an upstream may stay silent (no byte) before a 504, or before a started answer is cut. */
  timeoutMs: number
  /** The server's request log (one line per request; never headers, query or bodies). */
  log?: ((line: string) => void) | undefined
}

/** One proxied request in flight. */
interface Forwarding {
  req: IncomingMessage
  res: ServerResponse
  target: ProxyTarget
  dispatch: Dispatch & { mount: NonNullable<Dispatch['mount']> }
  url: URL
  path: string
  started: number
  /** The CORS headers the gate chose for this request: the server's policy, never the upstream's. */
  cors: Readonly<Record<string, string>>
}

/**
 * Sends the requests of proxied areas (`serve --proxy admin=https://…`) to
 * their real backend and streams the answer back unchanged, while every other
 * area stays simulated. Each request still passes the simulator's fault rules
 * (latency first; a status or drop answers instead of the upstream) and is
 * recorded in its journal, marked with the upstream (`proxy`) and redacted like
 * every entry. Bodies stream both ways; only their start is kept for the journal.
 *
 * @example
 * const proxy = new AreaProxy(simulator, 'http://127.0.0.1:4000', { targets, timeoutMs: 30_000 })
 * if (!proxy.handle(req, res, gate.check(req), performance.now())) answerSimulated(req, res)
 */
export class AreaProxy {
  readonly #simulator: Simulator
  readonly #origin: string
  readonly #options: AreaProxyOptions
  readonly #byArea: Map<string, ProxyTarget>
  // Connections to an upstream are kept open between requests, as a browser would.
  readonly #agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) }

  constructor(simulator: Simulator, origin: string, options: AreaProxyOptions) {
    this.#simulator = simulator
    this.#origin = origin
    this.#options = options
    this.#byArea = new Map(options.targets.map((target) => [target.area, target]))
  }

  /** Starts answering `req` when its area is proxied and answers `true`; `false` leaves it to the simulator. The gate has passed it. */
  handle(req: IncomingMessage, res: ServerResponse, verdict: GateVerdict, started: number): boolean {
    const { url, cors } = verdict
    const path = url.pathname
    const dispatch = this.#simulator.dispatcher.dispatch({ method: req.method ?? 'GET', url: url.href })
    const target = dispatch?.mount === undefined ? undefined : this.#byArea.get(dispatch.mount.area)
    if (target === undefined || dispatch?.mount === undefined) return false
    void this.#forward({ req, res, target, dispatch: dispatch as Forwarding['dispatch'], url, path, started, cors }).catch((error: unknown) => {
      process.stderr.write(`multi-area-mock: could not proxy ${req.method} ${path}: ${error instanceof Error ? error.message : String(error)}\n`)
      res.destroy()
    })
    return true
  }

  /** Closes the kept upstream connections (the server is closing). */
  close(): void {
    this.#agents.http.destroy()
    this.#agents.https.destroy()
  }

  async #forward(job: Forwarding): Promise<void> {
    const world = this.#world(job.req)
    const faults = world.faults instanceof FaultInjector ? world.faults : undefined
    const journal = world.journal instanceof Journal && world.journal.capacity > 0 ? world.journal : undefined
    const time = journal ? world.clock.nowMs() : 0
    const simRequest = fromNodeRequest(job.req, this.#origin)
    const fault = faults?.decide(simRequest, routeOf(job))
    if (fault !== undefined && fault.delay > 0) await new Promise((resolve) => setTimeout(resolve, fault.delay))
    const record = (status: number, response: Reply, lengths: { request?: number; response?: number } = {}, requestText?: string) => {
      this.#options.log?.(`${job.req.method} ${job.path} ${status === 0 ? 'dropped' : status} ${(performance.now() - job.started).toFixed(1)}ms (proxied to ${job.target.base.host})`)
      journal?.record({
        time,
        durationMs: performance.now() - job.started,
        request: journalRequest(simRequest, requestText),
        dispatch: job.dispatch,
        response: { ...response, status },
        fault: fault?.applied,
        proxy: job.target.base.href,
        bodyLengths: lengths,
      })
    }
    if (fault?.drop) {
      record(0, { status: 0, headers: {}, body: null })
      return void job.res.socket?.destroy()
    }
    if (fault?.status !== undefined) return this.#answerLocally(job, faultResponse({ ...fault, status: fault.status }), record)
    await this.#stream(job, journal?.bodyLimit ?? 0, record, fault?.preferenceApplied)
  }

  /** The request to the upstream and the answer back, both streamed. */
  #stream(job: Forwarding, captureLimit: number, record: Recorder, preferenceApplied: string | undefined): Promise<void> {
    const { req, res, target } = job
    const upstream = upstreamUrl(target.base, job.url.pathname.slice(job.dispatch.mount.prefix.length), job.url.search)
    const https = upstream.protocol === 'https:'
    const sent = new BodyCapture(captureLimit)
    const received = new BodyCapture(captureLimit)
    return new Promise<void>((resolve) => {
      let settled = false
      const outgoing = (https ? httpsRequest : httpRequest)(upstream, { method: req.method ?? 'GET', headers: upstreamRequestHeaders(req.headers), agent: https ? this.#agents.https : this.#agents.http })
      const fail = (reply: Reply) => {
        if (settled) return
        settled = true
        outgoing.destroy()
        if (res.headersSent) res.destroy()
        else this.#answerLocally(job, reply, record, sent)
        resolve()
      }
      // Idle time: no byte from the upstream for this long, before or during its answer.
      outgoing.setTimeout(this.#options.timeoutMs, () => fail(errorResponse(gatewayTimeout(target.area, target.base, this.#options.timeoutMs))))
      outgoing.on('error', (error) => fail(errorResponse(badGateway(target.area, target.base, error))))
      outgoing.on('response', (answer: IncomingMessage) => {
        const headers = downstreamHeaders(answer.rawHeaders, job.cors)
        if (preferenceApplied) headers['preference-applied'] = preferenceApplied
        const encoded = (answer.headers['content-encoding'] ?? 'identity') !== 'identity'
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers)
        answer.on('data', (chunk: Buffer) => {
          if (!encoded) received.add(chunk)
        })
        answer.pipe(res)
        answer.on('error', () => fail(errorResponse(badGateway(target.area, target.base, new Error('aborted')))))
        res.on('finish', () => {
          if (settled) return
          settled = true
          const body = encoded ? null : (received.text() ?? null)
          record(answer.statusCode ?? 502, { status: 0, headers: {}, body }, { request: sent.bytes, response: received.bytes }, sent.text())
          resolve()
        })
      })
      // The client went away: stop the upstream too.
      res.on('close', () => {
        if (!res.writableFinished) fail(errorResponse(badGateway(target.area, target.base, new Error('client closed'))))
      })
      req.on('data', (chunk: Buffer) => sent.add(chunk))
      req.on('error', () => outgoing.destroy())
      req.pipe(outgoing)
    })
  }

  /** An answer made here (a fault rule's status, a 502 or a 504): written with the CORS headers and journaled. */
  #answerLocally(job: Forwarding, reply: Reply, record: Recorder, sent?: BodyCapture): void {
    Object.assign(reply.headers, job.cors)
    record(reply.status, reply, { request: sent?.bytes ?? 0 }, sent?.text())
    if (!job.res.destroyed) writeReply(job.res, reply)
  }

  /** The world a request names (`x-mock-world`), for its journal and fault rules; the default one otherwise. */
  #world(req: IncomingMessage): Simulator {
    const id = requestedWorld({ headers: { get: (name) => headerValue(req, name) } })
    return (id === null ? undefined : this.#simulator.worlds.get(id)) ?? this.#simulator
  }
}

type Recorder = (status: number, response: Reply, lengths?: { request?: number; response?: number }, requestText?: string) => void

/** The route fault rules match against: the simulated route when one has the path, else the path itself. */
function routeOf(job: Forwarding): Extract<Dispatch, { kind: 'route' }> {
  if (job.dispatch.kind === 'route') return job.dispatch
  const path = job.url.pathname.slice(job.dispatch.mount.prefix.length) || '/'
  const route = { method: 'GET' as const, path, summary: 'proxied', handle: () => ({ status: 0, headers: {}, body: null }) }
  return { kind: 'route', route, params: {}, url: job.url, mount: job.dispatch.mount }
}

/** What the journal reads of a proxied request: its URL and headers, and the start of its body as text. */
function journalRequest(request: SimRequest, bodyText: string | undefined): SimRequest {
  return { method: request.method, url: request.url, headers: request.headers, bodyText, readText: () => Promise.reject(new Error('streamed to the upstream')) }
}

function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name]
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
}
