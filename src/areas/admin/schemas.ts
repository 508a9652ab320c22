import * as z from 'zod'
import { intParam } from '../../kernel/query.js'
import { email, userStatus } from '../../world/accounts/account-schema.js'

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

/** A user in Area A's list (spec: id, username, email, status, created_at). */
export const userSummary = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  status: userStatus,
  created_at: z.string(),
})

/** A user in single reads, creation and update responses: adds `updated_at` and `last_login`. */
export const userDetail = userSummary.extend({
  updated_at: z.string(),
  last_login: z.string().nullable(),
})
