import type { CheckContext } from './check-context.js'
import { CheckSkipped } from './failures.js'
import type { Observed } from './http-probe.js'
import { excerpt } from './interface-document.js'

/** An account a check created (or was given with `--fixture login=`). */
export interface TestAccount {
  id: string | undefined
  username: string
  email: string
  password: string
}

/**
 * What a check needs before it can test anything: any 2xx with a JSON object.
 * Anything else skips the check (the check of that operation reports the
 * departure itself), so one divergence is reported once, by its own check.
 */
export function setupBody(observed: Observed, what: string): Record<string, unknown> {
  if (observed.status >= 200 && observed.status < 300 && observed.isJson && observed.json !== null && typeof observed.json === 'object' && !Array.isArray(observed.json)) {
    return observed.json as Record<string, unknown>
  }
  throw new CheckSkipped(`could not ${what}: ${observed.method} ${new URL(observed.url).pathname} answered ${observed.status} ${excerpt(observed.text, 60)}`)
}

/** A username, an email and a password for a new account, all with the run's prefix. */
export function newAccountInput(ctx: CheckContext, label = 'user'): { username: string; email: string; password: string } {
  const username = ctx.unique(label)
  return { username, email: `${username}@example.com`, password: `${ctx.unique('pw')}-Secret!` }
}

/**
 * Creates an account through Area A (or Area B, the accounts are shared: D5)
 * and deletes it through Area A when the check ends.
 */
export async function createAccount(ctx: CheckContext, via: 'admin' | 'core' = ctx.has('admin') ? 'admin' : 'core'): Promise<TestAccount> {
  const input = newAccountInput(ctx)
  const observed = via === 'admin' ? await ctx.probe('admin').send('POST', '/api/v1.2/users', { json: input }) : await ctx.probe('core').send('POST', '/users', { json: input })
  const body = setupBody(observed, 'create an account')
  const id = typeof body.id === 'string' ? body.id : undefined
  if (id === undefined) throw new CheckSkipped(`could not create an account: the answer has no string id (${excerpt(observed.text, 60)})`)
  removeWhenDone(ctx, id, input.username)
  return { id, ...input }
}

/** Deletes a created user when the check ends: through Area A, else it is reported as left behind. */
export function removeWhenDone(ctx: CheckContext, id: string, username: string): void {
  if (!ctx.has('admin')) return ctx.leaveBehind(`user ${username} (no Area A to delete it with)`)
  ctx.onCleanup(`user ${username}`, async () => {
    const observed = await ctx.probe('admin').send('DELETE', `/api/v1.2/users/${encodeURIComponent(id)}`)
    if (observed.status !== 204 && observed.status !== 404) throw new Error(`DELETE answered ${observed.status}`)
  })
}

/** An account to log in with: `--fixture login=user:password`, else a new one. */
export async function loginAccount(ctx: CheckContext): Promise<TestAccount> {
  const given = ctx.optionalFixture('login')
  if (given !== undefined) {
    const split = given.indexOf(':')
    return { id: undefined, username: given.slice(0, split), email: '', password: given.slice(split + 1) }
  }
  if (!ctx.has('admin') && !ctx.has('core')) throw new CheckSkipped('needs an account: pass --fixture login=<username>:<password>, or the base URL of Area A or B to create one')
  return createAccount(ctx)
}

/** Logs in (Area D) and answers the token. */
export async function logIn(ctx: CheckContext, account: TestAccount): Promise<string> {
  const observed = await ctx.probe('general').send('POST', '/auth/login', { json: { username: account.username, password: account.password } })
  const body = setupBody(observed, 'log in')
  if (typeof body.token !== 'string') throw new CheckSkipped(`could not log in: the answer has no token (${excerpt(observed.text, 60)})`)
  return body.token
}

/** Sets an account's status through Area A (needed for the inactive cases). */
export async function setStatus(ctx: CheckContext, account: TestAccount, status: 'active' | 'inactive'): Promise<void> {
  if (!ctx.has('admin') || account.id === undefined) throw new CheckSkipped('needs Area A to make an account inactive')
  setupBody(await ctx.probe('admin').send('PUT', `/api/v1.2/users/${encodeURIComponent(account.id)}`, { json: { status } }), `make the account ${status}`)
}
