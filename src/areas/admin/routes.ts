import { notFound } from '../../kernel/api-error.js'
import { parseBody } from '../../kernel/json-body.js'
import { empty, json } from '../../kernel/json-response.js'
import { linkHeader } from '../../kernel/pagination.js'
import { parseQuery } from '../../kernel/query.js'
import type { RouteDefinition } from '../../kernel/route.js'
import type { AccountStore } from '../../world/accounts/account-store.js'
import type { World } from '../../world/world.js'
import { createUserBody, listUsersQuery, updateUserBody } from './schemas.js'
import { toDetail, toSummary } from './users.js'

/** Area A: versioned user administration under `/api/v1.2`. */
export function adminRoutes(world: World, accounts: AccountStore): RouteDefinition[] {
  const limit = { limit: world.limits.bodyBytes }
  const requireUser = (id: string) => accounts.get(id) ?? throwUnknownUser(id)

  return [
    {
      method: 'GET',
      path: '/api/v1.2/users',
      summary: 'List users, paginated, optionally filtered by status (D12)',
      handle({ url }) {
        const query = parseQuery(listUsersQuery, url)
        const all = accounts.sorted()
        const matching = query.status ? all.filter((user) => user.status === query.status) : all
        const start = (query.page - 1) * query.limit
        const page = matching.slice(start, start + query.limit).map(toSummary)
        return json(page, 200, {
          'x-total-count': String(matching.length),
          link: linkHeader(url, { page: query.page, limit: query.limit, total: matching.length }),
        })
      },
    },
    {
      method: 'POST',
      path: '/api/v1.2/users',
      summary: 'Create a user; it starts pending (D5)',
      async handle({ request, url }) {
        const body = await parseBody(request, createUserBody, limit)
        const user = await accounts.register(body)
        return json(toDetail(user), 201, { location: `${url.pathname}/${user.id}` })
      },
    },
    {
      method: 'GET',
      path: '/api/v1.2/users/{userId}',
      summary: 'Read one user, including last_login',
      handle({ params }) {
        return json(toDetail(requireUser(params.userId!)))
      },
    },
    {
      method: 'PUT',
      path: '/api/v1.2/users/{userId}',
      summary: 'Update email and/or status (active|inactive) (D13)',
      async handle({ request, params }) {
        requireUser(params.userId!)
        const body = await parseBody(request, updateUserBody, limit)
        const user = (await accounts.update(params.userId!, body)) ?? throwUnknownUser(params.userId!)
        return json(toDetail(user))
      },
    },
    {
      method: 'DELETE',
      path: '/api/v1.2/users/{userId}',
      summary: 'Delete a user, irreversibly',
      handle({ params }) {
        if (!accounts.remove(params.userId!)) throwUnknownUser(params.userId!)
        return empty(204)
      },
    },
  ]
}

function throwUnknownUser(id: string): never {
  throw notFound(`No user with id "${id}".`)
}
