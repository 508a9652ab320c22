import type { SimRequest } from '../../../kernel/http/sim-request.js'
import type { Account } from '../../../world/accounts/account-schema.js'
import { invalidToken, unauthorized } from './auth-errors.js'
import type { AccessTokens } from './tokens.js'

/** RFC 6750's token68 syntax for a Bearer credential. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/

/**
 * The account behind `Authorization: Bearer <token>` (D7, D8), or a 401:
 * `unauthorized` without a header or with another scheme; `invalid_token` for
 * a malformed, forged or foreign token, and when the user was deleted or made
 * inactive since the token was issued; `token_expired` once `exp` has passed
 * on the simulator clock. Every 401 carries `WWW-Authenticate: Bearer`.
 *
 * @example
 * const user = await requireBearer(request, tokens, (id) => accounts.get(id))
 */
export async function requireBearer(request: SimRequest, tokens: AccessTokens, findAccount: (id: string) => Account | undefined): Promise<Account> {
  const header = request.headers.get('authorization')
  if (header === null || header.trim() === '') throw unauthorized('Authentication required: send Authorization: Bearer <token>.')
  const [scheme = '', ...rest] = header.trim().split(/\s+/)
  // Auth schemes are case-insensitive (RFC 9110 §11.1).
  if (scheme.toLowerCase() !== 'bearer') throw unauthorized(`Unsupported authorization scheme "${scheme.slice(0, 32)}": send Authorization: Bearer <token>.`)
  if (rest.length !== 1 || !TOKEN68.test(rest[0]!)) throw invalidToken('The Authorization header must be Bearer followed by one token.')
  const claims = await tokens.verify(rest[0]!)
  const account = findAccount(claims.sub)
  if (!account) throw invalidToken('The user of this access token no longer exists.')
  if (account.status === 'inactive') throw invalidToken('The user of this access token is inactive.')
  return account
}
