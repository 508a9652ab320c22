import { type AreaRecording, nothingShown, type Observation, type ObserveResult, pick, type RecordedExchange } from '../../world/recording.js'
import { RECORDED_USERS } from '../../world/accounts/accounts-recording.js'
import type { AdminOperations } from './operations.js'

/** What Area A's list shows of a user (`AdminUser`). */
const SUMMARY_FIELDS = ['id', 'username', 'email', 'status', 'created_at'] as const
/** What its single reads, creation and update show (`AdminUserDetail`). */
const DETAIL_FIELDS = [...SUMMARY_FIELDS, 'updated_at', 'last_login'] as const

/**
 * What Area A's answers show about the shared users (section `accounts`):
 *
 * - `listUsers` 200: each listed user exists, with its list fields;
 * - `createUser` 201, `getUser` 200, `updateUser` 200: the user exists, with
 *   every field the answer shows (`updated_at`, `last_login` too). Only the
 *   answer is read, never the request: its password is not kept;
 * - `getUser`, `updateUser` 404, `deleteUser` 204 or 404: the user of the
 *   path is gone.
 *
 * Any other 4xx (400 `validation_failed`, 409 `conflict`, 401, 403, a 404 of
 * the list...) is an answer that changed nothing, so it shows no change of any
 * record: mapped, with nothing kept. A 5xx, or a status the operation does not
 * document, is not mapped: the summary names it, since the backend's records
 * behind it are unknown.
 *
 * @example
 * recorderFor({ dispatcher: sim.dispatcher, areas: ['admin'], description: 'Recorded' }) // reads Area A's answers with these rules
 */
export const adminRecording: AreaRecording = {
  sections: ['accounts'],
  observe: {
    listUsers: (exchange) => (exchange.status === 200 ? (exchange.response as unknown[]).map((item) => user(item, SUMMARY_FIELDS)) : nothingShown(exchange)),
    createUser: (exchange) => (exchange.status === 201 ? [user(exchange.response, DETAIL_FIELDS)] : nothingShown(exchange)),
    getUser: (exchange) => detailOrGone(exchange),
    updateUser: (exchange) => detailOrGone(exchange),
    deleteUser: (exchange) => (exchange.status === 204 || exchange.status === 404 ? [gone(exchange)] : nothingShown(exchange)),
  } satisfies Record<keyof AdminOperations, (exchange: RecordedExchange) => ObserveResult>,
}

/** A 200 shows the user; a 404 shows the path's user is gone. */
function detailOrGone(exchange: RecordedExchange): ObserveResult {
  if (exchange.status === 200) return [user(exchange.response, DETAIL_FIELDS)]
  if (exchange.status === 404) return [gone(exchange)]
  return nothingShown(exchange)
}

/** A user as an answer shows it (a 2xx body was checked against its documented schema: `id` is a string). */
function user(shown: unknown, fields: readonly string[]): Observation {
  const picked = pick(shown, fields)
  return { kind: 'upsert', section: 'accounts', collection: RECORDED_USERS, id: picked.id as string, fields: picked }
}

function gone(exchange: RecordedExchange): Observation {
  return { kind: 'remove', section: 'accounts', collection: RECORDED_USERS, id: exchange.params.userId! }
}
