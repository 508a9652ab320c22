import { createHash, timingSafeEqual } from 'node:crypto'
import { ApiError } from '../../kernel/errors/api-error.js'
import { CONTROL_TOKEN_REFUSALS } from '../../simulator/openapi/openapi.js'

/** The challenge every refusal carries (RFC 6750). */
const REALM = 'Bearer realm="multi-area-mock control API"'

/** The two refusals, worded once: the document shows them as the control API's 401 examples. */
const [{ body: MISSING }, { body: WRONG }] = CONTROL_TOKEN_REFUSALS

/**
 * Guards the control API with a shared secret: a request must carry
 * `Authorization: Bearer <token>`. Returns the 401 to send (D9, with
 * `WWW-Authenticate: Bearer`), or `undefined` when the request may pass.
 * The comparison takes the same time whatever the bytes sent (both sides are
 * hashed first, so not even the token's length leaks).
 *
 * @example
 * const refuse = controlTokenGuard('s3cret')
 * refuse(request.headers.authorization)?.status // 401 without the right `Bearer` token
 */
export function controlTokenGuard(token: string): (authorization: string | undefined) => ApiError | undefined {
  const matches = tokenMatcher(token)
  return (header) => {
    const sent = bearerToken(header)
    if (sent === undefined) {
      return new ApiError(401, 'unauthorized', MISSING.message, { headers: { 'www-authenticate': REALM } })
    }
    if (matches(sent)) return undefined
    return new ApiError(401, 'invalid_token', WRONG.message, { headers: { 'www-authenticate': `${REALM}, error="invalid_token"` } })
  }
}

/**
 * Whether an `Authorization` header is one the guard would let pass: the
 * proxy drops such a header, so the control token never reaches an upstream.
 *
 * @example
 * const carries = carriesControlToken('s3cret')
 * carries('Bearer s3cret') // true
 * carries('Bearer app-token') // false
 */
export function carriesControlToken(token: string): (authorization: string | undefined) => boolean {
  const matches = tokenMatcher(token)
  return (header) => {
    const sent = bearerToken(header)
    return sent !== undefined && matches(sent)
  }
}

/** Compares a sent token with `token` in the same time whatever the bytes sent (both sides hashed first, so not even the length leaks). */
function tokenMatcher(token: string): (sent: string) => boolean {
  if (token === '') throw new Error('The control token must not be empty.')
  const expected = digest(token)
  return (sent) => timingSafeEqual(digest(sent), expected)
}

/** The token of an `Authorization: Bearer <token>` header, if it is one. */
function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)
  return match?.[1]
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest()
}
