import { ApiError } from '../../../kernel/errors/api-error.js'

/** The realm named in every `WWW-Authenticate` challenge of Area D. */
export const REALM = 'general'

/**
 * 401 `unauthorized` (D7, D9): no credentials, or not Bearer ones. RFC 6750
 * §3.1 says such a challenge carries no `error` attribute (the client may not
 * know auth is needed), so the header is just `Bearer realm="general"`; the
 * body still says `unauthorized`.
 *
 * @example
 * throw unauthorized('Send Authorization: Bearer <token>.')
 */
export function unauthorized(message: string): ApiError {
  return new ApiError(401, 'unauthorized', message, { headers: { 'www-authenticate': `Bearer realm="${REALM}"` } })
}

/**
 * 401 `invalid_token` (D7): a token was presented and is not acceptable.
 * `description` goes into RFC 6750's `error_description`, so it must be plain
 * ASCII without quotes or backslashes.
 *
 * @example
 * throw invalidToken('The access token signature is invalid.')
 */
export function invalidToken(description: string): ApiError {
  return tokenError('invalid_token', description)
}

/**
 * 401 `token_expired` (D7). RFC 6750 has no such error code, so the header says
 * `error="invalid_token"` (what OAuth clients look for) and the body says
 * `token_expired` (what D7 asks for).
 *
 * @example
 * throw tokenExpired('The access token expired at 2026-01-01T01:00:00.000Z.')
 */
export function tokenExpired(description: string): ApiError {
  return tokenError('token_expired', description)
}

function tokenError(code: 'invalid_token' | 'token_expired', description: string): ApiError {
  const safe = description.replace(/[^\x20-\x7e]|["\\]/g, '')
  return new ApiError(401, code, description, {
    headers: { 'www-authenticate': `Bearer realm="${REALM}", error="invalid_token", error_description="${safe}"` },
  })
}
