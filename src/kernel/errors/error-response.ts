import { ApiError } from './api-error.js'
import { json } from '../http/json/json-response.js'
import type { Reply } from '../http/reply.js'

/**
 * The single place where a thrown error becomes an HTTP reply (D9).
 * An `ApiError` keeps its status, code and details; anything else is a bug in
 * the simulator and becomes a 500 `internal_error` without a stack trace.
 *
 * @example
 * try { return await route(request) } catch (error) { return errorResponse(error) }
 */
export function errorResponse(error: unknown, onInternal?: (error: unknown) => void): Reply {
  if (error instanceof ApiError) {
    const body: Record<string, unknown> = { error: error.code, message: error.message }
    if (error.details) body.details = error.details
    if (error.extra) Object.assign(body, error.extra)
    return json(body, error.status, error.headers)
  }
  onInternal?.(error)
  return json({ error: 'internal_error', message: 'The simulator failed to handle this request.' }, 500)
}
