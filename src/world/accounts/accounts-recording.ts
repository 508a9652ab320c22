import type * as z from 'zod'
import type { SectionRecording } from '../recording.js'
import { type accountsScenario, scenarioUser } from './account-schema.js'

/** The collection Areas A and B record users into (section `accounts`). */
export const RECORDED_USERS = 'users'

/** A user's fields a recorded scenario keeps: what Areas A and B show, never a password. */
const USER_FIELDS = ['id', 'username', 'email', 'status', 'created_at', 'updated_at', 'last_login'] as const

/**
 * The `accounts` part of a recorded scenario.
 *
 * @example
 * const part: RecordedAccounts = { users: [{ id: 'u1', username: 'ada', email: 'ada@example.com', password: null }] }
 */
export type RecordedAccounts = z.input<typeof accountsScenario>

/**
 * The shared users of a recorded scenario: each user the traffic showed, with
 * the fields it showed, and `password: null` (no password: logging in as them
 * is refused as a wrong password is, until `PUT /__mock/state` gives them one).
 * Nothing else: the base's `generate` (users never seen) and `password` (no
 * user left to take it) are dropped. A field never shown takes the scenario
 * default: `status` `active` (Area B shows none), `updated_at` the
 * `created_at`, `last_login` `null`. A user the scenario would refuse (a
 * username or email outside its rules, a username already kept in another
 * case under another id) is left out, with why.
 *
 * @example
 * accountsRecording.scenario(recorded, base).scenario // { users: [{ id, username, email, status, created_at, password: null }] }
 */
export const accountsRecording: SectionRecording<RecordedAccounts> = {
  key: 'accounts',
  scenario({ collections }) {
    const users: NonNullable<RecordedAccounts['users']> = []
    const left: string[] = []
    const names = new Map<string, string>()
    for (const [id, fields] of collections.get(RECORDED_USERS) ?? new Map<string, Readonly<Record<string, unknown>>>()) {
      if (fields.username === undefined || fields.email === undefined) {
        left.push(`${RECORDED_USERS}/${id}: no answer showed its username and email`)
        continue
      }
      const user: Record<string, unknown> = {}
      for (const key of USER_FIELDS) if (fields[key] !== undefined) user[key] = fields[key]
      user.id = id
      user.password = null
      const checked = scenarioUser.safeParse(user)
      if (!checked.success) {
        const issue = checked.error.issues[0]!
        left.push(`${RECORDED_USERS}/${id}: ${issue.path.join('.')} ${issue.message}`)
        continue
      }
      const name = checked.data.username.toLowerCase()
      const holder = names.get(name)
      if (holder !== undefined) {
        left.push(`${RECORDED_USERS}/${id}: its username "${checked.data.username}" is user ${holder}'s too (a deletion not seen?)`)
        continue
      }
      names.set(name, id)
      // The fields as shown (`checked.data` adds defaults the file need not spell out).
      users.push(user as (typeof users)[number])
    }
    return { scenario: { users }, left }
  },
}
