import { ApiError } from '../../kernel/errors/api-error.js'
import type { ErrorCode } from '../../kernel/errors/error-codes.js'
import { errorResponse } from '../../kernel/errors/error-response.js'
import type { Reply } from '../../kernel/http/reply.js'
import { statusText } from '../../kernel/http/status-text.js'
import { RETRY_AFTER_STATUSES } from './fault-rule.js'

/** What a fault's answer is made of: its status (400-599) and what goes with it. */
export interface FaultAnswer {
  status: number
  /** Seconds in `Retry-After` (429 and 503 only); default 1. */
  retryAfter?: number | undefined
  /** The request's area: a 401's `WWW-Authenticate` realm. */
  area?: string | undefined
  /** The methods of the request's path: a 405's `Allow` and `allowed`, as the router's own 405 says them. */
  allowed?: readonly string[] | undefined
  /** The `Preference-Applied` header value, when a `Prefer` chose the fault. */
  preferenceApplied?: string | undefined
}

/** D9 codes whose name is not their status's reason phrase in snake case. */
const CODE_OF: Readonly<Partial<Record<number, ErrorCode>>> = { 500: 'internal_error', 431: 'headers_too_large' }

/** Messages of the statuses users fake most; any other says its status and reason phrase. */
const MESSAGES: Readonly<Record<number, string>> = {
  400: 'The request was refused as invalid (injected fault).',
  401: 'Authentication is required (injected fault).',
  403: 'Access to this resource is forbidden (injected fault).',
  404: 'Nothing was found here (injected fault).',
  409: 'The request conflicts with the current state (injected fault).',
  422: 'The request could not be processed (injected fault).',
  429: 'Too many requests (injected fault).',
  500: 'The server failed to handle this request (injected fault).',
  502: 'An upstream service answered badly (injected fault).',
  503: 'The service is unavailable (injected fault).',
  504: 'An upstream service did not answer in time (injected fault).',
}

/**
 * The D9 code a fault answers with: the project's own code for the status
 * where it has one (`not_found`, `conflict`, `too_many_requests`,
 * `internal_error`, …), else the reason phrase in snake case (`forbidden`,
 * `gone`, `unprocessable_entity`, `im_a_teapot`), else `client_error` or `server_error`
 * for a status without a standard reason phrase.
 *
 * @example
 * faultCode(404) // 'not_found'
 * faultCode(403) // 'forbidden'
 * faultCode(599) // 'server_error'
 */
export function faultCode(status: number): string {
  const own = CODE_OF[status]
  if (own) return own
  const reason = statusText(status)
  if (reason === '') return status < 500 ? 'client_error' : 'server_error'
  return reason
    .toLowerCase()
    .replace(/'/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/ /g, '_')
}

/**
 * The D9 error response of a fault: `{error, message}` with the status's code
 * (`faultCode`) and a message ending "(injected fault)". 429 and 503 carry
 * `Retry-After` (seconds, default 1) and `retry_after` in the body; a 401
 * carries the `WWW-Authenticate: Bearer` challenge HTTP requires of it, a 405
 * its `Allow` (and `allowed`, as the router's own 405).
 *
 * @example
 * faultResponse({ status: 404 }) // 404 {error: 'not_found', message: 'Nothing was found here (injected fault).'}
 */
export function faultResponse(fault: FaultAnswer): Reply {
  const { status } = fault
  const headers: Record<string, string> = {}
  const extra: Record<string, unknown> = {}
  if ((RETRY_AFTER_STATUSES as readonly number[]).includes(status)) {
    const seconds = fault.retryAfter ?? 1
    headers['retry-after'] = String(seconds)
    extra.retry_after = seconds
  }
  if (status === 401) headers['www-authenticate'] = `Bearer realm="${fault.area ?? 'multi-area-mock'}"`
  if (status === 405 && fault.allowed) {
    headers.allow = fault.allowed.join(', ')
    extra.allowed = fault.allowed
  }
  if (fault.preferenceApplied) headers['preference-applied'] = fault.preferenceApplied
  const message = MESSAGES[status] ?? `The simulator answered ${status}${statusText(status) ? ` ${statusText(status)}` : ''} (injected fault).`
  return errorResponse(new ApiError(status, faultCode(status), message, { headers, extra }))
}
