import { type AnswerOptions, answer } from '../kernel/routing/answer.js'
import type { Dispatch } from '../kernel/routing/dispatcher.js'
import { droppedReply, type Reply } from '../kernel/http/reply.js'
import type { SimRequest } from '../kernel/http/sim-request.js'
import type { SimClock } from '../kernel/time/sim-clock.js'
import type { FaultDecision, FaultInjector } from './faults.js'
import { faultResponse } from './fault-response.js'
import type { Journal } from './journal.js'
import type { WorldLock } from './world-lock.js'

/** Area id of the control API mount (D26): never faulted, never journaled. */
export const CONTROL_AREA = 'control'

/** What one simulator (or world) answers with: its faults, its journal, its clock. */
export interface PipelineParts {
  faults: FaultInjector
  journal: Journal
  clock: SimClock
  /** Area requests hold it while they run, so resets and loads never interleave with them. */
  lock: WorldLock
  /** For control calls: they wait for world operations but never hold the world (a reset is one). */
  answerOptions: AnswerOptions
  /** For area requests, which hold the world already: no waiting inside it. */
  areaAnswerOptions: AnswerOptions
}

/**
 * What answers a proxied area's request instead of its route (`serve --proxy`):
 * the real backend at `base`. `answer` writes the answer to the client itself,
 * as it streams in, and gives back what the journal keeps of it; a reply it did
 * not write (the upstream could not be reached: 502, 504) the caller writes.
 */
export interface Upstream {
  /** The upstream base URL, for the journal. */
  readonly base: string
  answer(request: SimRequest, context: UpstreamContext): Promise<UpstreamReply>
}

/** What the pipeline tells an upstream about the answer it makes. */
export interface UpstreamContext {
  /** The pipeline's own headers for the answer (`Preference-Applied`). */
  headers: Readonly<Record<string, string>>
  /** Bytes of each body the world's journal keeps (0: none). */
  captureLimit: number
}

/** An upstream's answer as the pipeline journals it. */
export interface UpstreamReply extends Reply {
  /** Already on the wire: the caller writes nothing more. */
  written: boolean
  /** The start of the streamed request body, as text, for the journal. */
  requestText: string | undefined
  bodyLengths: { request?: number; response?: number }
}

/**
 * Answers a dispatched request: a fault first when a rule or `Prefer` header
 * asks for one (a status or a drop answers *instead of* the route, so nothing
 * is written), then the route (or, for a proxied area, its `upstream`), then
 * one journal entry. Control API calls and errors outside every area (unknown
 * world) skip both. An area request holds the world's lock from the route to
 * the journal entry, except while it waits for injected latency or for its
 * body, so it never straddles a reset; an upstream touches no world, so it
 * holds nothing.
 *
 * @example
 * const response = await servePipeline(dispatch, request, { faults, journal, clock, answerOptions })
 */
export async function servePipeline(dispatch: Dispatch, request: SimRequest, parts: PipelineParts, upstream?: Upstream): Promise<Reply> {
  const area = dispatch.mount?.area
  if (area === undefined || area === CONTROL_AREA) return answer(dispatch, request, parts.answerOptions)
  const journaling = parts.journal.capacity > 0
  const started = journaling ? performance.now() : 0
  const time = journaling ? parts.clock.nowMs() : 0
  const fault = dispatch.kind === 'route' ? parts.faults.decide(request, dispatch) : undefined
  if (fault !== undefined && fault.delay > 0) await new Promise((resolve) => setTimeout(resolve, fault.delay))
  if (upstream) return proxied(dispatch, request, parts, upstream, fault, journaling ? { time, started } : undefined)
  const waiting = parts.lock.enter()
  if (waiting) await waiting
  try {
    const response = fault === undefined ? await answer(dispatch, request, parts.areaAnswerOptions) : await withFault(fault, dispatch, request, parts)
    if (journaling) parts.journal.record({ time, durationMs: performance.now() - started, request, dispatch, response, fault: fault?.applied })
    return response
  } finally {
    parts.lock.leave()
  }
}

/** A proxied area's request past its faults: the upstream answers unless the fault does, then one journal entry. */
async function proxied(
  dispatch: Dispatch,
  request: SimRequest,
  parts: PipelineParts,
  upstream: Upstream,
  fault: FaultDecision | undefined,
  journal: { time: number; started: number } | undefined,
): Promise<Reply> {
  const local = fault && insteadOfAnswer(fault)
  const headers = fault?.preferenceApplied ? { 'preference-applied': fault.preferenceApplied } : NO_HEADERS
  const response = local ?? (await upstream.answer(request, { headers, captureLimit: journal ? parts.journal.bodyLimit : 0 }))
  if (journal) {
    const streamed = local === undefined ? (response as UpstreamReply) : undefined
    parts.journal.record({
      time: journal.time,
      durationMs: performance.now() - journal.started,
      request: streamed ? journalRequest(request, streamed.requestText) : request,
      dispatch,
      response,
      fault: fault?.applied,
      proxy: upstream.base,
      bodyLengths: streamed?.bodyLengths,
    })
  }
  return response
}

/** What the journal reads of a proxied request: its URL and headers, and the start of its streamed body as text. */
function journalRequest(request: SimRequest, bodyText: string | undefined): SimRequest {
  return { method: request.method, url: request.url, headers: request.headers, bodyText, readText: () => Promise.reject(new Error('streamed to the upstream')) }
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({})

/** What a fault answers instead of the route or the upstream: a dropped connection or its status; `undefined` when it only delays or marks. */
function insteadOfAnswer(fault: FaultDecision): Reply | undefined {
  // A network error: msw makes fetch reject; the Node server destroys the socket.
  if (fault.drop) return droppedReply()
  if (fault.status !== undefined) return faultResponse({ ...fault, status: fault.status })
  return undefined
}

async function withFault(fault: FaultDecision, dispatch: Dispatch, request: SimRequest, parts: PipelineParts): Promise<Reply> {
  const local = insteadOfAnswer(fault)
  if (local) return local
  const response = await answer(dispatch, request, parts.areaAnswerOptions)
  if (fault.preferenceApplied) response.headers['preference-applied'] = fault.preferenceApplied
  return response
}
