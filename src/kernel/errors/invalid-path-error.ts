import { ApiError } from './api-error.js'

/**
 * The 400 for a request path with `.`/`..` segments or backslashes, which the
 * HTTP server refuses before any route; the OpenAPI document shows the same
 * answer on every operation with a path parameter.
 *
 * @example
 * throw invalidPathError() // 400 {"error":"invalid_path",…}
 */
export function invalidPathError(): ApiError {
  return new ApiError(400, 'invalid_path', 'The request path has "." or ".." segments or backslashes; send the path as a browser would, with them resolved.')
}
