import { type AnswerOptions, answer } from '../kernel/answer.js'
import type { Dispatch } from '../kernel/dispatcher.js'
import { droppedReply, type Reply } from '../kernel/reply.js'
import type { SimRequest } from '../kernel/sim-request.js'
import type { SimClock } from '../kernel/sim-clock.js'
import { type FaultDecision, type FaultInjector, faultResponse } from './faults.js'
import type { Journal } from './journal.js'

/** Area id of the control API mount (D26): never faulted, never journaled. */
export const CONTROL_AREA = 'control'

/** What one simulator (or world) answers with: its faults, its journal, its clock. */
export interface PipelineParts {
  faults: FaultInjector
  journal: Journal
  clock: SimClock
  answerOptions: AnswerOptions
}

/**
 * Answers a dispatched request: a fault first when a rule or `Prefer` header
 * asks for one (a status or a drop answers *instead of* the route, so nothing
 * is written), then the route, then one journal entry. Control API calls and
 * errors outside every area (unknown world) skip both.
 *
 * @example
 * const response = await servePipeline(dispatch, request, { faults, journal, clock, answerOptions })
 */
export async function servePipeline(dispatch: Dispatch, request: SimRequest, parts: PipelineParts): Promise<Reply> {
  const area = dispatch.mount?.area
  if (area === undefined || area === CONTROL_AREA) return answer(dispatch, request, parts.answerOptions)
  const journaling = parts.journal.capacity > 0
  const started = journaling ? performance.now() : 0
  const time = journaling ? parts.clock.now().getTime() : 0
  const fault = dispatch.kind === 'route' ? parts.faults.decide(request, dispatch) : undefined
  const response = fault === undefined ? await answer(dispatch, request, parts.answerOptions) : await withFault(fault, dispatch, request, parts)
  if (journaling) parts.journal.record({ time, durationMs: performance.now() - started, request, dispatch, response, fault: fault?.applied })
  return response
}

async function withFault(fault: FaultDecision, dispatch: Dispatch, request: SimRequest, parts: PipelineParts): Promise<Reply> {
  if (fault.delay > 0) await new Promise((resolve) => setTimeout(resolve, fault.delay))
  // A network error: msw makes fetch reject; the Node server destroys the socket.
  if (fault.drop) return droppedReply()
  if (fault.status !== undefined) return faultResponse({ ...fault, status: fault.status })
  const response = await answer(dispatch, request, parts.answerOptions)
  if (fault.preferenceApplied) response.headers['preference-applied'] = fault.preferenceApplied
  return response
}
