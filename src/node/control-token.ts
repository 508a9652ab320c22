import { createHash, timingSafeEqual } from 'node:crypto'
import { ApiError } from '../kernel/errors/api-error.js'
import { CONTROL_TOKEN_REFUSALS } from '../simulator/openapi.js'

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
  if (token === '') throw new Error('The control token must not be empty.')
  const expected = digest(token)
  return (header) => {
    const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)
    if (!match) {
      return new ApiError(401, 'unauthorized', MISSING.message, { headers: { 'www-authenticate': REALM } })
    }
    if (timingSafeEqual(digest(match[1]!), expected)) return undefined
    return new ApiError(401, 'invalid_token', WRONG.message, { headers: { 'www-authenticate': `${REALM}, error="invalid_token"` } })
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest()
}
