import { type AnswerOptions, answer } from '../../kernel/routing/answer.js'
import type { Dispatch } from '../../kernel/routing/dispatcher.js'
import { droppedReply, type Reply } from '../../kernel/http/reply.js'
import type { SimRequest } from '../../kernel/http/sim-request.js'
import type { SimClock } from '../../kernel/time/sim-clock.js'
import type { FaultDecision, FaultInjector } from '../faults/faults.js'
import { faultResponse } from '../faults/fault-response.js'
import type { Journal } from '../journal/journal.js'
import type { WorldLock } from '../worlds/world-lock.js'
import { CONTROL_AREA } from '../simulator.js'
import { isCommand } from '../log/command.js'
import { errorResponse } from '../../kernel/errors/error-response.js'
import type { WorldWrites } from '../log/world-writes.js'

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
  /** Requests that change the world become commands of its family's log (issue 33). */
  writes: WorldWrites
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
  if (area === undefined || area === CONTROL_AREA) {
    return isCommand(dispatch) ? parts.writes.write(dispatch, request) : answer(dispatch, request, parts.answerOptions)
  }
  const journaling = parts.journal.capacity > 0
  const started = journaling ? performance.now() : 0
  const time = journaling ? parts.clock.nowMs() : 0
  let fault: FaultDecision | undefined
  if (dispatch.kind === 'route') {
    const decided = parts.writes.fault(request, dispatch)
    try {
      fault = decided instanceof Promise ? await decided : decided
    } catch (error) {
      // Replicas decide a fault in the store's order: a store that cannot answer is this request's 503.
      return errorResponse(error)
    }
  }
  if (fault !== undefined && fault.delay > 0) await new Promise((resolve) => setTimeout(resolve, fault.delay))
  if (upstream) return proxied(dispatch, request, parts, upstream, fault, journaling ? { time, started } : undefined)
  let response: Reply
  if (isCommand(dispatch)) {
    // A write holds the world only while it is checked and while it is applied, in the log's turn.
    response = await withFault(fault, () => parts.writes.write(dispatch, request))
  } else {
    const waiting = parts.lock.enter()
    if (waiting) await waiting
    try {
      response = await withFault(fault, () => answer(dispatch, request, parts.areaAnswerOptions))
    } finally {
      parts.lock.leave()
    }
  }
  // Replicas (`serve --store`): the entry is in the store before the answer leaves, so a read on any replica shows it.
  const shared = journaling ? parts.journal.record({ time, durationMs: performance.now() - started, request, dispatch, response, fault: fault?.applied }) : undefined
  if (shared) await shared
  return response
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
    const shared = parts.journal.record({
      time: journal.time,
      durationMs: performance.now() - journal.started,
      request: streamed ? journalRequest(request, streamed.requestText) : request,
      dispatch,
      response,
      fault: fault?.applied,
      proxy: upstream.base,
      bodyLengths: streamed?.bodyLengths,
    })
    if (shared) await shared
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

/** The route's answer (`route`) unless a fault answers instead; a fault that only delays or marks adds its header. */
async function withFault(fault: FaultDecision | undefined, route: () => Promise<Reply>): Promise<Reply> {
  if (fault === undefined) return route()
  const local = insteadOfAnswer(fault)
  if (local) return local
  const response = await route()
  if (fault.preferenceApplied) response.headers['preference-applied'] = fault.preferenceApplied
  return response
}
