import { ApiError } from './api-error.js'

/** Seconds a client is asked to wait after a store outage: about how long a reconnection takes. */
export const STORE_RETRY_AFTER_S = 2

/**
 * 503 `store_unavailable`: the store that keeps the worlds (Redis, the state
 * file) could not be reached or written; `reason` is one line, with no secret.
 *
 * @example
 * throw storeUnavailable('Redis at 127.0.0.1:6379 did not answer within 3000 ms')
 */
export function storeUnavailable(reason: string): ApiError {
  return new ApiError(503, 'store_unavailable', `The store that keeps the worlds is unavailable: ${reason}. Retry in a few seconds.`, {
    headers: { 'retry-after': String(STORE_RETRY_AFTER_S) },
  })
}
