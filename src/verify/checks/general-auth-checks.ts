import { check, type Check } from '../check.js'
import type { CheckContext } from '../check-context.js'
import { expectConforms, expectEqual, expectError, expectThat, objectBody } from '../expect.js'
import { CheckSkipped } from '../failures.js'
import type { Observed } from '../http-probe.js'
import { expiredCopy, readJwt, tamperedSignature, unsignedCopy } from '../jwt-cases.js'
import { createAccount, loginAccount, logIn, setStatus, setupBody } from '../setup.js'

const LOGIN = 'POST /auth/login'
const UPDATE = 'PUT /resources/{id}'
/** A resource id no implementation is expected to hold, for the 401 cases when no resource is known. */
const UNLIKELY_RESOURCE = 2147483646

const general = (ctx: CheckContext) => ctx.probe('general')

/** Where the 401 cases send their update: the known resource with its own data (so nothing changes even if a token were wrongly taken), else an id unlikely to exist. */
export async function protectedTarget(ctx: CheckContext): Promise<{ path: string; body: { data: Record<string, unknown> } }> {
  const id = ctx.optionalFixture('resource')
  if (id === undefined) return { path: `/resources/${UNLIKELY_RESOURCE}`, body: { data: { note: ctx.unique('note') } } }
  const current = setupBody(await general(ctx).send('GET', `/data/${encodeURIComponent(id)}`), 'read the resource')
  const { id: _id, created_at: _created, updated_at: _updated, ...data } = current
  return { path: `/resources/${encodeURIComponent(id)}`, body: { data } }
}

/** A 401 of the protected update: the code(s) and a `WWW-Authenticate: Bearer` challenge (D7). */
function expectChallenge(ctx: CheckContext, observed: Observed, ...codes: string[]): void {
  expectError(ctx, 'general', UPDATE, observed, 401, ...codes)
  const challenge = observed.headers.get('www-authenticate') ?? ''
  expectThat(/^bearer\b/i.test(challenge), 'the 401 has no WWW-Authenticate: Bearer challenge', 'WWW-Authenticate: Bearer …', challenge || 'none')
}

/** One 401 case: what is sent as `Authorization` (undefined: none) and the codes D7 allows for it. */
function unauthorizedCase(name: string, title: string, codes: string[], authorization: (ctx: CheckContext) => Promise<string | undefined>): Check {
  return check({
    name: `general.update-resource.${name}`,
    area: 'general',
    operation: UPDATE,
    title,
    writes: true,
    async run(ctx) {
      const header = await authorization(ctx)
      const target = await protectedTarget(ctx)
      const answer = await general(ctx).send('PUT', target.path, { json: target.body, headers: header === undefined ? {} : { authorization: header } })
      expectChallenge(ctx, answer, ...codes)
    },
  })
}

/** A fresh valid token of a new account. */
async function validToken(ctx: CheckContext): Promise<string> {
  return logIn(ctx, await loginAccount(ctx))
}

/** Area D: login and every 401 of the protected update (D6, D7, D8). */
export const generalAuthChecks = [
  check({
    name: 'general.login',
    area: 'general',
    operation: LOGIN,
    title: 'logs in: 200, documented shape, an HS256 JWT whose exp − iat is expires_in (D6, D7)',
    writes: true,
    async run(ctx) {
      const account = await loginAccount(ctx)
      const answer = await general(ctx).send('POST', '/auth/login', { json: { username: account.username, password: account.password } })
      expectConforms(ctx, 'general', LOGIN, answer, 200)
      const body = objectBody(answer)
      const jwt = readJwt(String(body.token))
      expectThat(jwt !== undefined, 'the token is not a JWT', 'header.claims.signature', String(body.token).slice(0, 40))
      expectEqual(jwt.header.alg, 'HS256', 'alg of the token')
      expectThat(
        typeof jwt.claims.sub === 'string' && typeof jwt.claims.iat === 'number' && typeof jwt.claims.exp === 'number',
        'the token lacks sub, iat or exp',
        'sub, iat, exp',
        JSON.stringify(jwt.claims),
      )
      expectEqual((jwt.claims.exp as number) - (jwt.claims.iat as number), body.expires_in, 'exp − iat of the token (expires_in)')
      if (account.id !== undefined) expectEqual(jwt.claims.sub, account.id, 'sub of the token (the user id)')
    },
  }),
  check({
    name: 'general.login.sets-last-login',
    area: 'general',
    operation: LOGIN,
    title: "a login sets the user's last_login, seen in Area A (D6)",
    writes: true,
    async run(ctx) {
      if (!ctx.has('admin')) throw new CheckSkipped('needs Area A to read last_login: pass --target or --base admin=<url>')
      const account = await createAccount(ctx, 'admin')
      await logIn(ctx, account)
      const read = objectBody(await ctx.probe('admin').send('GET', `/api/v1.2/users/${encodeURIComponent(account.id!)}`))
      expectThat(typeof read.last_login === 'string', 'last_login is not set after a login', 'a timestamp', JSON.stringify(read.last_login))
    },
  }),
  check({
    name: 'general.login.invalid-credentials',
    area: 'general',
    operation: LOGIN,
    title: 'a wrong password and an unknown username are the same 401 invalid_credentials (D6)',
    writes: true,
    async run(ctx) {
      const account = await loginAccount(ctx)
      const wrong = expectError(
        ctx,
        'general',
        LOGIN,
        await general(ctx).send('POST', '/auth/login', { json: { username: account.username, password: `${account.password}-wrong` } }),
        401,
        'invalid_credentials',
      )
      const unknown = expectError(
        ctx,
        'general',
        LOGIN,
        await general(ctx).send('POST', '/auth/login', { json: { username: ctx.unique('nobody'), password: account.password } }),
        401,
        'invalid_credentials',
      )
      expectEqual(unknown.message, wrong.message, 'the message for an unknown username (never says which was wrong)')
    },
  }),
  check({
    name: 'general.login.inactive',
    area: 'general',
    operation: LOGIN,
    title: 'an inactive user with the right password is 403 account_inactive (D6)',
    writes: true,
    async run(ctx) {
      if (!ctx.has('admin')) throw new CheckSkipped('needs Area A to make an account inactive: pass --target or --base admin=<url>')
      const account = await createAccount(ctx, 'admin')
      await setStatus(ctx, account, 'inactive')
      expectError(
        ctx,
        'general',
        LOGIN,
        await general(ctx).send('POST', '/auth/login', { json: { username: account.username, password: account.password } }),
        403,
        'account_inactive',
      )
    },
  }),
  check({
    name: 'general.login.validation',
    area: 'general',
    operation: LOGIN,
    title: 'a missing password is 400 validation_failed (D11)',
    writes: true,
    async run(ctx) {
      expectError(ctx, 'general', LOGIN, await general(ctx).send('POST', '/auth/login', { json: { username: ctx.unique('nobody') } }), 400, 'validation_failed')
    },
  }),
  unauthorizedCase('no-token', 'no Authorization header is 401 unauthorized with a Bearer challenge (D7, D8)', ['unauthorized'], async () => undefined),
  unauthorizedCase('wrong-scheme', 'Basic credentials are 401 with a Bearer challenge (D7)', ['unauthorized', 'invalid_token'], async () => `Basic ${btoa('someone:secret')}`),
  unauthorizedCase('malformed-token', 'a token that is not a JWT is 401 invalid_token (D7)', ['invalid_token'], async () => 'Bearer not-a-jwt'),
  unauthorizedCase(
    'bad-signature',
    'a real token with a changed signature is 401 invalid_token (D7)',
    ['invalid_token'],
    async (ctx) => `Bearer ${tamperedSignature(await validToken(ctx))}`,
  ),
  unauthorizedCase(
    'alg-none',
    'the same claims with alg none and no signature are 401 invalid_token (D7)',
    ['invalid_token'],
    async (ctx) => `Bearer ${unsignedCopy(await validToken(ctx))}`,
  ),
  unauthorizedCase('expired-token', 'an expired token is 401 token_expired (D7)', ['token_expired'], async (ctx) => {
    const given = ctx.optionalFixture('expired-token')
    if (given !== undefined) return `Bearer ${given}`
    const secret = ctx.fixture('jwt-secret')
    return `Bearer ${await expiredCopy(await validToken(ctx), secret)}`
  }),
]
