import { ApiError } from './api-error.js'

/**
 * The 413 of a body over the limit (D11), the same whichever adapter read it.
 *
 * @example
 * if (size > limit) throw payloadTooLarge(limit)
 */
export function payloadTooLarge(limit: number): ApiError {
  return new ApiError(413, 'payload_too_large', `The request body is larger than the limit of ${limit} bytes.`, {
    extra: { limit },
  })
}
