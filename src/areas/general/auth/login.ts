import { ApiError } from '../../../kernel/errors/api-error.js'
import { hashPassword, verifyPassword } from '../../../kernel/crypto/password.js'
import type { Account } from '../../../world/accounts/account-schema.js'

/** The password of the stand-in hash an unknown username is checked against; no account can log in with it. */
export const STAND_IN_PASSWORD = 'multi-area-mock stand-in password'

/** What the authenticator needs from the shared accounts (D5). */
export interface AccountLookup {
  findByUsername(username: string): Account | undefined
}

export interface AuthenticatorHooks {
  /** Checks a password against a stored hash; default: the accounts' PBKDF2 check. */
  verify?: (password: string, hash: string) => Promise<boolean>
  /** Builds the stand-in hash checked for unknown usernames; default: PBKDF2 with the accounts' cost. */
  dummyHash?: () => Promise<string>
}

/**
 * Checks a username and password against the shared accounts (D6). Wrong
 * username and wrong password give the same 401 `invalid_credentials` after the
 * same work: an unknown username is checked against a stand-in hash of the
 * same cost, so the answer's timing does not tell whether the user exists. An
 * inactive account is 403 `account_inactive`, but only with the right
 * password, so the status of an account leaks to nobody without it.
 *
 * @example
 * const account = await new Authenticator(accounts).authenticate('ada', 'Passw0rd!')
 */
export class Authenticator {
  readonly #accounts: AccountLookup
  readonly #verify: (password: string, hash: string) => Promise<boolean>
  readonly #makeDummy: () => Promise<string>
  #dummy: Promise<string> | undefined

  constructor(accounts: AccountLookup, hooks: AuthenticatorHooks = {}) {
    this.#accounts = accounts
    this.#verify = hooks.verify ?? verifyPassword
    // A fixed salt: the stand-in protects no password, and drawing one from the
    // world's random source would shift every seeded value after it.
    this.#makeDummy = hooks.dummyHash ?? (() => hashPassword(STAND_IN_PASSWORD, new Uint8Array(16)))
  }

  /** Builds the stand-in hash ahead of the first unknown username, so even that answer takes no longer. */
  prepare(): void {
    this.#standIn().catch(() => undefined)
  }

  async authenticate(username: string, password: string): Promise<Account> {
    const account = this.#accounts.findByUsername(username)
    const hash = account?.password_hash ?? (await this.#standIn())
    const matches = await this.#verify(password, hash)
    if (!account || !matches) throw new ApiError(401, 'invalid_credentials', 'The username or password is incorrect.')
    if (account.status === 'inactive') throw new ApiError(403, 'account_inactive', 'This account is inactive; an administrator can reactivate it.')
    return account
  }

  #standIn(): Promise<string> {
    return (this.#dummy ??= this.#makeDummy())
  }
}
