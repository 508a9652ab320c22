import type { Account } from '../../world/accounts/account-schema.js'
import type { AdminUser, AdminUserDetail } from './schemas.js'

/** The list projection of an account (no password hash, ever). */
export function toSummary(account: Account): AdminUser {
  return { id: account.id, username: account.username, email: account.email, status: account.status, created_at: account.created_at }
}

/** The single-read projection of an account. */
export function toDetail(account: Account): AdminUserDetail {
  // Spelled out rather than spread from toSummary: a spread copy cost ~3% of a user creation.
  return {
    id: account.id,
    username: account.username,
    email: account.email,
    status: account.status,
    created_at: account.created_at,
    updated_at: account.updated_at,
    last_login: account.last_login,
  }
}
