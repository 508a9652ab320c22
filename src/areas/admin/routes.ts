import * as z from 'zod'
import { notFound } from '../../kernel/errors/api-error.js'
import { empty, json, jsonText } from '../../kernel/http/json/json-response.js'
import { linkHeader } from './pagination.js'
import { defineRoute } from '../../kernel/routing/route.js'
import type { Reply } from '../../kernel/http/reply.js'
import type { Account } from '../../world/accounts/account-schema.js'
import type { AccountStore } from '../../world/accounts/account-store.js'
import { conflictExtra } from '../../world/accounts/account-schema.js'
import { createUserBody, listUsersQuery, updateUserBody, userDetail, userParams, userSummary } from './schemas.js'
import { PageCache } from './page-cache.js'
import { toDetail, toSummary } from './users.js'

/** What Area A's routes work on. */
export interface AdminRouteContext {
  accounts: AccountStore
}

/**
 * Area A: versioned user administration under `/api/v1.2`.
 * Its return type is inferred, not declared: the operation types (operations.ts) are read from it.
 */
export function adminRoutes({ accounts }: AdminRouteContext) {
  const requireUser = (id: string) => accounts.get(id) ?? throwUnknownUser(id)
  const unknownUser = { code: 'not_found', description: 'No user with that id; the message names it (D13).' } as const
  const someUser = (status?: string) => ({ userId: accounts.sorted().find((user) => !status || user.status === status)!.id })
  // Each account's list item and detail, serialized once (a hot read serializes nothing).
  const summaryJson = serializedOnce(toSummary)
  const detailJson = serializedOnce(toDetail)
  const pages = new PageCache<{ text: string; total: string; link: string }>(accounts)

  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1.2/users',
      operationId: 'listUsers',
      summary: 'List users',
      description:
        'Pages by `page` (from 1) and `limit` (1 to 100, default 20), optionally only the users of one `status`; anything else is a 400. Ordered by `created_at`, then `id`. A page past the end is `200 []`. `X-Total-Count` gives the number of matching users, `Link` the first, previous, next and last pages.',
      query: listUsersQuery,
      responses: { 200: { body: z.array(userSummary), headers: ['X-Total-Count', 'Link'] } },
      examples: () => [
        { name: 'pending', summary: 'Pending users, two per page', query: { status: 'pending', limit: '2' } },
        { name: 'badQuery', summary: 'Out-of-range paging', query: { page: '0', limit: '500' } },
      ],
      handle({ url, query }) {
        // Keyed by the query string as sent: the page and its Link header follow from it alone.
        const page = pages.get(url.search, () => {
          const matching = accounts.sorted(query.status)
          const start = (query.page - 1) * query.limit
          return {
            text: `[${matching
              .slice(start, start + query.limit)
              .map(summaryJson)
              .join(',')}]`,
            total: String(matching.length),
            link: linkHeader(url, { page: query.page, limit: query.limit, total: matching.length }),
          }
        })
        return cachedJson(page.text, { 'x-total-count': page.total, link: page.link })
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1.2/users',
      operationId: 'createUser',
      summary: 'Create a user',
      description:
        'The new user starts `pending`. The username is 3 to 64 letters, digits, `.`, `_` or `-`, unique regardless of case (409 `conflict` with `field: "username"` when taken); the email a valid address; the password 8 to 256 characters. Areas A and B share their users. `Location` is the new user\'s path.',
      body: createUserBody,
      responses: { 201: { body: userDetail, headers: ['Location'] } },
      errors: [{ code: 'conflict', extra: conflictExtra }],
      examples: () => [
        { summary: 'A new user', body: { username: 'grace.hopper', email: 'grace.hopper@example.com', password: 'correct-horse' } },
        {
          name: 'taken',
          summary: 'A username already taken (any case)',
          body: { username: accounts.sorted()[0]!.username.toUpperCase(), email: 'someone@example.com', password: 'correct-horse' },
        },
      ],
      async handle({ url, body }) {
        const user = await accounts.register(body)
        return json(toDetail(user), 201, { location: `${url.pathname}/${user.id}` })
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1.2/users/{userId}',
      operationId: 'getUser',
      summary: 'Read a user',
      description: 'The user with its `updated_at` and `last_login` (`null` until the first login to Area D). An unknown id is a 404 whose message names it.',
      params: userParams,
      responses: { 200: { body: userDetail } },
      errors: [unknownUser],
      examples: () => [{ params: someUser('active') }, { name: 'unknown', params: { userId: 'no-such-user' } }],
      handle({ params }) {
        return cachedJson(detailJson(requireUser(params.userId)))
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/v1.2/users/{userId}',
      operationId: 'updateUser',
      summary: 'Update a user',
      description:
        'Changes only the fields given, `email` and `status`, and stamps `updated_at`. `status` may become `active` or `inactive` from any state; `pending` is not a target (400). An unknown id is a 404, whatever the body.',
      params: userParams,
      body: updateUserBody,
      responses: { 200: { body: userDetail } },
      errors: [unknownUser],
      examples: () => [
        { summary: 'Activate a pending user', params: someUser('pending'), body: { status: 'active' } },
        { name: 'invalid', summary: 'Every problem listed', params: someUser('pending'), body: { status: 'pending', email: 'not-an-email' } },
      ],
      // Before the body is read: an unknown user is 404 whatever the body.
      guard({ params }) {
        requireUser(params.userId)
      },
      async handle({ params, body }) {
        const user = (await accounts.update(params.userId, body)) ?? throwUnknownUser(params.userId)
        return json(toDetail(user))
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1.2/users/{userId}',
      operationId: 'deleteUser',
      summary: 'Delete a user',
      description: 'Removes the user for good, in Areas A and B alike; later reads are 404. An unknown id is a 404 whose message names it.',
      params: userParams,
      responses: { 204: { description: 'Deleted; no body.' } },
      errors: [unknownUser],
      examples: () => [{ params: someUser() }],
      handle({ params }) {
        if (!accounts.remove(params.userId)) throwUnknownUser(params.userId)
        return empty(204)
      },
    }),
  ]
}

function throwUnknownUser(id: string): never {
  throw notFound(`No user with id "${id}".`)
}

/**
 * `JSON.stringify(view(account))`, once per record: a write replaces the record
 * (and so drops its entry), so an entry never outlives the account as it was.
 */
function serializedOnce(view: (account: Account) => unknown): (account: Account) => string {
  const texts = new WeakMap<Account, string>()
  return (account) => {
    let text = texts.get(account)
    if (text === undefined) texts.set(account, (text = JSON.stringify(view(account))))
    return text
  }
}

/** A 200 with JSON a cache keeps: the journal keeps it by reference instead of a copy. */
function cachedJson(text: string, headers?: Record<string, string>): Reply {
  const reply = jsonText(text, 200, headers)
  reply.bodyCached = true
  return reply
}
