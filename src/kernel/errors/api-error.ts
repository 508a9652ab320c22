/** One problem found while validating input (D9 `details` entry). */
export interface ErrorDetail {
  path: string
  message: string
}

export interface ApiErrorOptions {
  details?: ErrorDetail[] | undefined
  /** Extra top-level fields of the error body, e.g. `particle_id` (D9). */
  extra?: Record<string, unknown> | undefined
  headers?: Record<string, string> | undefined
}

/**
 * The one error type domain code throws. It is turned into the D9 JSON body
 * (`{ error, message, details?, ...extra }`) in exactly one place: `errorResponse`.
 *
 * @example
 * throw new ApiError(404, 'not_found', `No user with id "${id}".`)
 */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly details: ErrorDetail[] | undefined
  readonly extra: Record<string, unknown> | undefined
  readonly headers: Record<string, string> | undefined

  constructor(status: number, code: string, message: string, options: ApiErrorOptions = {}) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.details = options.details
    this.extra = options.extra
    this.headers = options.headers
  }
}

/** 400 `validation_failed` listing every problem (D11). */
export function validationFailed(details: ErrorDetail[], message?: string): ApiError {
  const summary = message ?? (details.length === 1 ? `The request is invalid: ${describe(details[0]!)}.` : `The request is invalid: ${details.length} problems found.`)
  return new ApiError(400, 'validation_failed', summary, { details })
}

/** 404 `not_found` with a message naming what was looked for (D9, D13). */
export function notFound(message: string, extra?: Record<string, unknown>): ApiError {
  return new ApiError(404, 'not_found', message, extra ? { extra } : {})
}

function describe(detail: ErrorDetail): string {
  return detail.path ? `${detail.path}: ${detail.message}` : detail.message
}
