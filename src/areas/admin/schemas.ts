import * as z from 'zod'
import { intParam } from '../../kernel/http/query.js'
import { email, userStatus } from '../../world/accounts/account-schema.js'
import { isoTimestamp } from '../../kernel/time/iso-timestamp.js'

export { registration as createUserBody } from '../../world/accounts/account-schema.js'

/** `GET /api/v1.2/users` query (D12). */
export const listUsersQuery = z.object({
  page: intParam(1).default(1),
  limit: intParam(1, 100).default(20),
  status: userStatus.optional(),
})

/** `PUT /api/v1.2/users/{userId}` body (D13): only given fields change; `pending` is not a target. */
export const updateUserBody = z.object({
  email: email.optional(),
  status: z.enum(['active', 'inactive'], 'must be "active" or "inactive"').optional(),
})

/** `{userId}` in Area A's paths. */
export const userParams = z.object({ userId: z.string().min(1).describe('Id of the user, as listed.') })

const summaryShape = {
  id: z.string(),
  username: z.string(),
  email: z.string(),
  status: userStatus,
  created_at: isoTimestamp,
}

/** A user in Area A's list (spec: id, username, email, status, created_at). */
export const userSummary = z.object(summaryShape).meta({ id: 'AdminUser', description: 'A user as Area A lists it.' })

/** A user in single reads, creation and update responses: adds `updated_at` and `last_login`. */
export const userDetail = z
  .object({
    ...summaryShape,
    updated_at: isoTimestamp,
    last_login: isoTimestamp.nullable().describe('`null` before the first login (D6).'),
  })
  .meta({ id: 'AdminUserDetail', description: 'A user as Area A reads, creates and updates it.' })
export type AdminUser = z.infer<typeof userSummary>
export type AdminUserDetail = z.infer<typeof userDetail>
