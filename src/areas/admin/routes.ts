import * as z from 'zod'
import { notFound } from '../../kernel/errors/api-error.js'
import { empty, json, jsonText } from '../../kernel/http/json-response.js'
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
      summary: 'List users, paginated, optionally filtered by status (D12)',
      description: 'Ordered by `created_at`, then `id`. A page past the end is `200 []`.',
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
      summary: 'Create a user; it starts pending (D5)',
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
      summary: 'Read one user, including last_login',
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
      summary: 'Update email and/or status (active|inactive) (D13)',
      description: 'Only the given fields change; `pending` is not a valid target.',
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
      summary: 'Delete a user, irreversibly',
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
