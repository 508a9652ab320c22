import { decodeJwt, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../kernel/errors/api-error.js'
import { toSimClock } from '../../kernel/time/sim-clock.js'
import { World } from '../../world/world.js'
import { AuthSettings } from './auth-settings.js'
import { AccessTokens, derivedSecret, TOKEN_ISSUER } from './tokens.js'

const world = (seed = 1) => new World({ seed, clock: toSimClock('2026-01-01T00:00:00Z'), limits: { bodyBytes: 1024, ingestPoints: 10 } })
const user = { id: 'u-1', username: 'ada' }
const code = (promise: Promise<unknown>) => promise.then(() => 'accepted', (error: ApiError) => error.code)

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
