import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../kernel/errors/api-error.js'
import type { Account } from '../../../world/accounts/account-schema.js'
import { Authenticator } from './login.js'

const account = (status: Account['status']): Account => ({
  id: `id-${status}`,
  username: status,
  email: `${status}@example.com`,
  status,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  last_login: null,
  password_hash: `hash-of-${status}`,
})

/** An authenticator over three accounts whose verifier records every call; the right password is "right". */
function setup() {
  const accounts = new Map(['active', 'pending', 'inactive'].map((status) => [status, account(status as Account['status'])]))
  const calls: Array<[string, string]> = []
  let dummies = 0
  const authenticator = new Authenticator(
    { findByUsername: (name) => accounts.get(name) },
    {
      verify: async (password, hash) => {
        calls.push([password, hash])
        return password === 'right' && hash.startsWith('hash-of-')
      },
      dummyHash: async () => `dummy-${++dummies}`,
    },
  )
  return { authenticator, calls, dummies: () => dummies }
}

/** The ApiError a login attempt fails with (a success fails the test). */
const failure = (attempt: Promise<unknown>): Promise<ApiError> =>
  attempt.then(
    () => expect.fail('expected the login to fail'),
    (error: unknown) => (expect(error).toBeInstanceOf(ApiError), error as ApiError),
  )

describe('Authenticator', () => {
  it('does the same work for an unknown username as for a wrong password: one verification, against a stand-in hash', async () => {
    const { authenticator, calls } = setup()
    const unknown = await failure(authenticator.authenticate('nobody', 'right'))
    const wrong = await failure(authenticator.authenticate('active', 'wrong'))
    expect(calls).toEqual([
      ['right', 'dummy-1'],
      ['wrong', 'hash-of-active'],
    ])
    expect([unknown.status, unknown.code, unknown.message]).toEqual([wrong.status, wrong.code, wrong.message])
    expect(unknown.code).toBe('invalid_credentials')
  })

  it('builds the stand-in hash once per authenticator, ahead of time when prepared', async () => {
    const { authenticator, dummies } = setup()
    authenticator.prepare()
    expect(dummies()).toBe(1)
    for (const name of ['x1', 'x2', 'x3']) await failure(authenticator.authenticate(name, 'right'))
    expect(dummies()).toBe(1)
  })

  it('lets active and pending accounts in; an inactive one is 403 only with the right password (D6)', async () => {
    const { authenticator } = setup()
    expect((await authenticator.authenticate('active', 'right')).id).toBe('id-active')
    expect((await authenticator.authenticate('pending', 'right')).id).toBe('id-pending')
    expect((await failure(authenticator.authenticate('inactive', 'right'))).code).toBe('account_inactive')
    expect((await failure(authenticator.authenticate('inactive', 'wrong'))).code).toBe('invalid_credentials')
  })

  it('uses a real PBKDF2 stand-in by default, which no password matches', async () => {
    const authenticator = new Authenticator({ findByUsername: () => undefined })
    expect((await failure(authenticator.authenticate('nobody', 'multi-area-mock stand-in password'))).status).toBe(401)
  })
})
