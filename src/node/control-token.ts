import { createHash, timingSafeEqual } from 'node:crypto'
import { ApiError } from '../kernel/errors/api-error.js'

/** The challenge every refusal carries (RFC 6750). */
const REALM = 'Bearer realm="multi-area-mock control API"'

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
      return new ApiError(401, 'unauthorized', 'The control API needs "Authorization: Bearer <control token>" (the server was started with --control-token).', {
        headers: { 'www-authenticate': REALM },
      })
    }
    if (timingSafeEqual(digest(match[1]!), expected)) return undefined
    return new ApiError(401, 'invalid_token', 'The control token is wrong.', { headers: { 'www-authenticate': `${REALM}, error="invalid_token"` } })
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest()
}
