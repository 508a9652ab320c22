import * as z from 'zod'
import { PASSWORD_HASH_PATTERN, passwordHashProblem } from '../../kernel/crypto/password-hash-format.js'
import { isoTimestamp } from '../../kernel/time/iso-timestamp.js'
import { email } from './email-address.js'

/** The password every generated user has unless a scenario says otherwise. Documented in the README. */
export const DEFAULT_PASSWORD = 'Passw0rd!'

/** Area A user statuses. */
export const userStatus = z.enum(['active', 'inactive', 'pending'])
export type UserStatus = z.infer<typeof userStatus>

export { EMAIL_PATTERN, email } from './email-address.js'

export const username = z.string().regex(/^[A-Za-z0-9._-]{3,64}$/, 'must be 3 to 64 characters: letters, digits, ".", "_" or "-"')
export const password = z.string().min(8, 'must be at least 8 characters').max(256)

/** A stored account: the one record behind Area A and Area B users (D5). */
export const accountRecord = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  status: userStatus,
  created_at: z.string(),
  updated_at: z.string(),
  last_login: z.string().nullable(),
  password_hash: z.string(),
})
export type Account = z.infer<typeof accountRecord>
/** An account as `sim.db.users` shows it: everything but the password hash. */
export type PublicAccount = Omit<Account, 'password_hash'>

/** An account as exported by the state API: never the password hash unless asked for (snapshots). */
export const accountState = z.strictObject({
  id: z.string().min(1),
  username,
  email,
  status: userStatus,
  created_at: isoTimestamp,
  updated_at: isoTimestamp.optional(),
  last_login: isoTimestamp.nullable().optional(),
  /** Plain password to set on import; hashed at once and never stored as given. `null`: the user has none (exports show it). */
  password: password.nullable().optional(),
  /** A hash produced by this simulator (in-process snapshots carry it), or `none` (`NO_PASSWORD_HASH`) for a user without a password; 1 to 10,000 iterations. */
  password_hash: z
    .string()
    .regex(PASSWORD_HASH_PATTERN, { error: (issue) => passwordHashProblem(String(issue.input)) })
    .meta({
      id: 'PasswordHash',
      description:
        'A hash this simulator wrote (snapshots and state files carry them; GET /__mock/state never shows one): `pbkdf2-hmac-sha256$<iterations>$<world salt>$<user salt>$<hash>` or the older `pbkdf2-sha256$<iterations>$<salt>$<hash>`, 1 to 10,000 iterations; or `none`, no password.',
    })
    .optional(),
})
export type AccountState = z.infer<typeof accountState>

export const accountsState = z.strictObject({ users: z.array(accountState) }).superRefine(uniqueUsers)

/** A user spelled out in a scenario file. */
export const scenarioUser = z.strictObject({
  id: z.string().min(1).optional().describe('Fixed id; generated when omitted.'),
  username,
  email,
  status: userStatus.default('active'),
  password: password
    .nullable()
    .optional()
    .describe('Defaults to the section password. `null`: the user has no password, and logging in as them is refused as a wrong password is (recorded scenarios).'),
  created_at: isoTimestamp.optional().describe('Defaults to the simulator clock.'),
  updated_at: isoTimestamp.optional().describe('Defaults to `created_at`.'),
  last_login: isoTimestamp.nullable().optional(),
})

/** Most users a scenario may generate per status: a 100,000-user world still seeds in well under 2 s (bench/README.md, --scale). */
export const MAX_GENERATED_USERS = 100_000

export const accountsScenario = z
  .strictObject({
    password: password.default(DEFAULT_PASSWORD).describe('Password of generated users and of listed users without one.'),
    generate: z
      .strictObject({
        active: z.int().min(0).max(MAX_GENERATED_USERS).default(0),
        inactive: z.int().min(0).max(MAX_GENERATED_USERS).default(0),
        pending: z.int().min(0).max(MAX_GENERATED_USERS).default(0),
      })
      .optional()
      .describe('How many realistic users faker generates, per status.'),
    users: z.array(scenarioUser).default([]).describe('Users listed one by one.'),
  })
  .superRefine(uniqueUsers)
export type AccountsScenario = z.infer<typeof accountsScenario>

function uniqueUsers(value: { users: Array<{ id?: string | undefined; username: string }> }, ctx: z.RefinementCtx): void {
  const ids = new Set<string>()
  const names = new Set<string>()
  value.users.forEach((user, index) => {
    if (user.id !== undefined) {
      if (ids.has(user.id)) ctx.addIssue({ code: 'custom', path: ['users', index, 'id'], message: `duplicate id "${user.id}"` })
      ids.add(user.id)
    }
    const name = user.username.toLowerCase()
    if (names.has(name)) ctx.addIssue({ code: 'custom', path: ['users', index, 'username'], message: `duplicate username "${user.username}"` })
    names.add(name)
  })
}

/** Body of user creation in Area A (`POST /api/v1.2/users`) and Area B (`POST /users`). */
export const registration = z.object({ username, email, password })

/** Extra field of the 409 `conflict` a taken username answers (D5): which field clashed. */
export const conflictExtra = z.object({ field: z.literal('username').describe('The field whose value is taken.') })
