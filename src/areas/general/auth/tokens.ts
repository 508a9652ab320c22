import { errors, jwtVerify, SignJWT } from 'jose'
import type { World } from '../../../world/world.js'
import { invalidToken, tokenExpired } from './auth-errors.js'
import { isCompactJwt } from './compact-jwt.js'
import type { AuthSettings } from './auth-settings.js'
import { type AccessTokenClaims, accessTokenClaims } from '../schemas.js'

/** `iss` of every token, checked on the way back in. */
export const TOKEN_ISSUER = 'multi-area-mock/general'
const ALGORITHM = 'HS256'
const encoder = new TextEncoder()

/**
 * Issues and checks Area D's access tokens (D7): real HS256 JWTs made and
 * verified by `jose`, timed by the simulator clock. The secret is the
 * configured one, else SHA-256 of `multi-area-mock/general/jwt/<seed>`, and
 * `jti` is the world's next id, so the same seed, scenario and requests give
 * the same tokens (D24).
 *
 * @example
 * const tokens = new AccessTokens(world, settings)
 * const { token } = await tokens.issue({ id: user.id, username: user.username })
 * const claims = await tokens.verify(token) // throws 401 invalid_token / token_expired
 */
export class AccessTokens {
  readonly #world: World
  readonly #settings: AuthSettings
  /** Imported keys by secret source; a seed change (scenario load) adds one. */
  readonly #keys = new Map<string, Promise<CryptoKey>>()

  constructor(world: World, settings: AuthSettings) {
    this.#world = world
    this.#settings = settings
  }

  async issue(user: { id: string; username: string }): Promise<{ token: string; expiresIn: number }> {
    const expiresIn = this.#settings.expiresIn
    const iat = Math.floor(this.#world.clock.nowMs() / 1000)
    // Drawn before any await, so concurrent logins take ids in arrival order.
    const jti = this.#world.nextId()
    const token = await new SignJWT({ username: user.username })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(TOKEN_ISSUER)
      .setSubject(user.id)
      .setIssuedAt(iat)
      .setExpirationTime(iat + expiresIn)
      .setJti(jti)
      .sign(await this.#key())
    return { token, expiresIn }
  }

  /**
   * The token's claims; a bad token throws 401 `invalid_token`, an expired one
   * 401 `token_expired`. Bad: not written exactly as a compact JWS
   * (`isCompactJwt`), not HS256 with this secret (so a key embedded as `jwk`
   * is never used), a `crit` header, another `iss`, a claim missing, `nbf` not
   * reached, or `iat` later than the simulator clock (no skew: the same clock
   * issues and checks the tokens).
   */
  async verify(token: string): Promise<AccessTokenClaims> {
    // jose decodes leniently (`=` padding, spare bits): one token must have one spelling.
    if (!isCompactJwt(token)) throw invalidToken('The access token is malformed.')
    const now = this.#world.clock.now()
    let payload: unknown
    try {
      // Only HS256: `alg: none` and every other algorithm are refused before any signature check.
      ;({ payload } = await jwtVerify(token, await this.#key(), {
        algorithms: [ALGORITHM],
        issuer: TOKEN_ISSUER,
        currentDate: now,
        requiredClaims: ['sub', 'iat', 'exp', 'jti'],
      }))
    } catch (error) {
      if (error instanceof errors.JWTExpired) {
        const exp = (error.payload as { exp?: unknown }).exp
        const when = typeof exp === 'number' ? ` at ${new Date(exp * 1000).toISOString()}` : ''
        throw tokenExpired(`The access token expired${when}.`)
      }
      if (error instanceof errors.JOSEError) throw invalidToken(describe(error))
      throw error
    }
    const claims = accessTokenClaims.safeParse(payload)
    if (!claims.success) throw invalidToken('The access token does not carry the expected claims.')
    // jose checks iat only against a maximum age; a token from the future was not issued by this clock.
    if (claims.data.iat * 1000 > now.getTime()) throw invalidToken('The access token claim iat is in the future.')
    return claims.data
  }

  #key(): Promise<CryptoKey> {
    const configured = this.#settings.secret
    const source = configured === undefined ? `seed:${this.#world.seed}` : `secret:${configured}`
    let key = this.#keys.get(source)
    if (!key) {
      key = importKey(configured === undefined ? derivedSecret(this.#world.seed) : Promise.resolve(encoder.encode(configured)))
      this.#keys.set(source, key)
    }
    return key
  }
}

/**
 * The secret used when none is configured: SHA-256 of
 * `multi-area-mock/general/jwt/<seed>` (documented, so a test can verify tokens itself).
 *
 * @example
 * const secret = await derivedSecret(1) // 32 bytes
 */
export async function derivedSecret(seed: number): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(`multi-area-mock/general/jwt/${seed}`)))
}

async function importKey(secret: Promise<Uint8Array>): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', (await secret) as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
}

function describe(error: InstanceType<typeof errors.JOSEError>): string {
  if (error instanceof errors.JOSEAlgNotAllowed) return 'The access token must be signed with HS256.'
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'The access token signature is invalid.'
  if (error instanceof errors.JWTClaimValidationFailed) return `The access token claim ${error.claim} is invalid.`
  return 'The access token is malformed.'
}
