import { createHmac } from 'node:crypto'
import { decodeJwt, exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import type { ApiError } from '../../../kernel/errors/api-error.js'
import { toSimClock } from '../../../kernel/time/sim-clock.js'
import { World } from '../../../world/world.js'
import { AuthSettings } from './auth-settings.js'
import { AccessTokens, derivedSecret, TOKEN_ISSUER } from './tokens.js'

const world = (seed = 1) => new World({ seed, clock: toSimClock('2026-01-01T00:00:00Z'), limits: { bodyBytes: 1024, ingestPoints: 10 } })
const user = { id: 'u-1', username: 'ada' }
const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: ApiError) => error.code,
  )

describe('AccessTokens (D7)', () => {
  it('issues HS256 JWTs that jose verifies with the configured secret', async () => {
    const tokens = new AccessTokens(world(), new AuthSettings({ secret: 'configured', expiresIn: 60 }))
    const { token, expiresIn } = await tokens.issue(user)
    expect(expiresIn).toBe(60)
    const { payload } = await jwtVerify(token, new TextEncoder().encode('configured'), { algorithms: ['HS256'], currentDate: new Date('2026-01-01T00:00:00Z') })
    expect(payload).toMatchObject({ iss: TOKEN_ISSUER, sub: 'u-1', username: 'ada', exp: payload.iat! + 60 })
  })

  it('accepts a token until the clock reaches exp, then says token_expired', async () => {
    const w = world()
    const tokens = new AccessTokens(w, new AuthSettings({ expiresIn: 10 }))
    const { token } = await tokens.issue(user)
    w.clock.advance('9999ms')
    expect((await tokens.verify(token)).sub).toBe('u-1')
    w.clock.advance('1ms')
    expect(await code(tokens.verify(token))).toBe('token_expired')
  })

  it('derives the default secret from the seed, so the same seed gives the same tokens and another seed refuses them', async () => {
    const [a, b, other] = [world(1), world(1), world(2)].map((w) => new AccessTokens(w, new AuthSettings(undefined)))
    const { token } = await a!.issue(user)
    expect((await b!.issue(user)).token).toBe(token)
    expect(await code(other!.verify(token))).toBe('invalid_token')
    await jwtVerify(token, await derivedSecret(1), { currentDate: new Date('2026-01-01T00:00:00Z') })
    expect(decodeJwt(token).jti).toEqual(expect.any(String))
  })
})

describe('AccessTokens.verify is strict (D7)', () => {
  const secret = new TextEncoder().encode('configured')
  const setup = async () => {
    const w = world()
    const tokens = new AccessTokens(w, new AuthSettings({ secret: 'configured', expiresIn: 3600 }))
    const { token } = await tokens.issue(user)
    return { w, tokens, token, claims: decodeJwt(token) }
  }
  const forge = (header: Record<string, unknown>, claims: Record<string, unknown>, key: Uint8Array | CryptoKey = secret) =>
    new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(key)
  // jose will not sign a `crit` it does not know: signed by hand.
  const handSigned = (header: Record<string, unknown>, claims: Record<string, unknown>) => {
    const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
    return `${input}.${createHmac('sha256', 'configured').update(input).digest('base64url')}`
  }
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'accepted',
      (error: ApiError) => `${error.status} ${error.code} ${error.headers?.['www-authenticate']?.startsWith('Bearer realm="general", error="invalid_token"')}`,
    )

  it('refuses anything after the signature: padding, another segment, a respelt last character', async () => {
    const { tokens, token } = await setup()
    expect(await refusal(tokens.verify(token))).toBe('accepted')
    const last = token.at(-1)!
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const respelt = `${token.slice(0, -1)}${alphabet[alphabet.indexOf(last) | 1]}`
    for (const bad of [`${token}=`, `${token}==`, `${token}.`, `${token}.e30`, respelt, token.replace('.', '=.')]) {
      expect(await refusal(tokens.verify(bad)), bad.slice(-6)).toBe('401 invalid_token true')
    }
  })

  it('refuses an iat later than the simulator clock, even by one second, and takes one equal to it', async () => {
    const { w, tokens, claims } = await setup()
    const now = claims.iat!
    expect(await refusal(tokens.verify(await forge({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now + 1 })))).toBe('401 invalid_token true')
    const ahead = forge({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now + 3600, exp: now + 7200 })
    await expect(tokens.verify(await ahead)).rejects.toMatchObject({ code: 'invalid_token', message: 'The access token claim iat is in the future.' })
    expect(await refusal(tokens.verify(await forge({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now })))).toBe('accepted')
    // Once the clock reaches that iat, the same token is good.
    w.clock.advance('3600s')
    expect(await refusal(tokens.verify(await ahead))).toBe('accepted')
  })

  it('refuses its own token once the clock is moved back before its iat', async () => {
    const { w, tokens, token } = await setup()
    w.clock.set('2025-12-31T23:59:59Z')
    expect(await refusal(tokens.verify(token))).toBe('401 invalid_token true')
  })

  it('keeps every other refusal: alg none, HS512, RS256 with an embedded jwk, crit, nbf, iss, exp', async () => {
    const { tokens, token, claims } = await setup()
    const [, body] = token.split('.')
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${body}.`
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
    const cases = {
      none,
      hs512: await forge({ alg: 'HS512', typ: 'JWT' }, claims),
      jwk: await forge({ alg: 'RS256', jwk: await exportJWK(publicKey) }, claims, privateKey),
      crit: handSigned({ alg: 'HS256', crit: ['x-unknown'], 'x-unknown': 1 }, claims),
      nbf: await forge({ alg: 'HS256' }, { ...claims, nbf: claims.iat! + 60 }),
      iss: await forge({ alg: 'HS256' }, { ...claims, iss: 'someone-else' }),
    }
    expect(await refusal(tokens.verify(handSigned({ alg: 'HS256', typ: 'JWT' }, claims))), 'the same, signed by hand without crit').toBe('accepted')
    for (const [what, bad] of Object.entries(cases)) expect(await refusal(tokens.verify(bad)), what).toBe('401 invalid_token true')
    const expired = await forge({ alg: 'HS256' }, { ...claims, iat: claims.iat! - 7200, exp: claims.iat! - 3600 })
    expect(await refusal(tokens.verify(expired))).toBe('401 token_expired true')
  })
})
