import { type AnswerOptions, answer } from '../kernel/routing/answer.js'
import type { Dispatch } from '../kernel/routing/dispatcher.js'
import { droppedReply, type Reply } from '../kernel/http/reply.js'
import { attachHold } from '../kernel/http/request-hold.js'
import type { SimRequest } from '../kernel/http/sim-request.js'
import type { SimClock } from '../kernel/time/sim-clock.js'
import { type FaultDecision, type FaultInjector, faultResponse } from './faults.js'
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
 * Answers a dispatched request: a fault first when a rule or `Prefer` header
 * asks for one (a status or a drop answers *instead of* the route, so nothing
 * is written), then the route, then one journal entry. Control API calls and
 * errors outside every area (unknown world) skip both. An area request holds
 * the world's lock from the route to the journal entry, except while it waits
 * for injected latency or for its body, so it never straddles a reset.
 *
 * @example
 * const response = await servePipeline(dispatch, request, { faults, journal, clock, answerOptions })
 */
export async function servePipeline(dispatch: Dispatch, request: SimRequest, parts: PipelineParts): Promise<Reply> {
  const area = dispatch.mount?.area
  if (area === undefined || area === CONTROL_AREA) return answer(dispatch, request, parts.answerOptions)
  const journaling = parts.journal.capacity > 0
  const started = journaling ? performance.now() : 0
  const time = journaling ? parts.clock.nowMs() : 0
  const fault = dispatch.kind === 'route' ? parts.faults.decide(request, dispatch) : undefined
  if (fault !== undefined && fault.delay > 0) await new Promise((resolve) => setTimeout(resolve, fault.delay))
  const waiting = parts.lock.enter()
  if (waiting) await waiting
  attachHold(request, parts.lock.hold)
  try {
    const response = fault === undefined ? await answer(dispatch, request, parts.areaAnswerOptions) : await withFault(fault, dispatch, request, parts)
    if (journaling) parts.journal.record({ time, durationMs: performance.now() - started, request, dispatch, response, fault: fault?.applied })
    return response
  } finally {
    parts.lock.leave()
  }
}

async function withFault(fault: FaultDecision, dispatch: Dispatch, request: SimRequest, parts: PipelineParts): Promise<Reply> {
  // A network error: msw makes fetch reject; the Node server destroys the socket.
  if (fault.drop) return droppedReply()
  if (fault.status !== undefined) return faultResponse({ ...fault, status: fault.status })
  const response = await answer(dispatch, request, parts.areaAnswerOptions)
  if (fault.preferenceApplied) response.headers['preference-applied'] = fault.preferenceApplied
  return response
}
