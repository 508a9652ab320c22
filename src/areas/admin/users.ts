import type { Account } from '../../world/accounts/account-schema.js'
import type { AdminUser, AdminUserDetail } from './schemas.js'

/** The list projection of an account (no password hash, ever). */
export function toSummary(account: Account): AdminUser {
  return { id: account.id, username: account.username, email: account.email, status: account.status, created_at: account.created_at }
}

/** The single-read projection of an account. */
export function toDetail(account: Account): AdminUserDetail {
  return { ...toSummary(account), updated_at: account.updated_at, last_login: account.last_login }
}
