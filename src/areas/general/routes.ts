import { notFound } from '../../kernel/api-error.js'
import { parseBody } from '../../kernel/json-body.js'
import { json } from '../../kernel/json-response.js'
import { parseQuery } from '../../kernel/query.js'
import type { RouteDefinition } from '../../kernel/route.js'
import { parseOrThrow } from '../../kernel/validate.js'
import type { AccountStore } from '../../world/accounts/account-store.js'
import type { World } from '../../world/world.js'
import { requireBearer } from './bearer-auth.js'
import { pickFields } from './field-filter.js'
import type { Authenticator } from './login.js'
import type { Outbox } from './notifications.js'
import { type ResourceStore, toResource } from './resource-store.js'
import { dataQuery, loginBody, resourceId, sendNotificationBody, updateResourceBody } from './schemas.js'
import type { AccessTokens } from './tokens.js'

/** The per-simulator domain objects Area D's routes use. */
export interface GeneralServices {
  authenticator: Authenticator
  tokens: AccessTokens
  resources: ResourceStore
  outbox: Outbox
}

/** Area D: login, data lookup, resource update (Bearer auth), notifications (D6–D8, D19, D20). */
export function generalRoutes(world: World, accounts: AccountStore, services: GeneralServices): RouteDefinition[] {
  const limit = { limit: world.limits.bodyBytes }
  const { authenticator, tokens, resources, outbox } = services
  const requireResource = (id: number) => resources.get(id) ?? throwUnknownResource(id)

  return [
    {
      method: 'POST',
      path: '/auth/login',
      summary: 'Log in with username and password; answers an HS256 JWT (D6, D7)',
      async handle({ request }) {
        const body = await parseBody(request, loginBody, limit)
        const account = await authenticator.authenticate(body.username, body.password)
        const { token, expiresIn } = await tokens.issue(account)
        await accounts.touchLogin(account.id)
        return json({ token, token_type: 'Bearer', expires_in: expiresIn }, 200, { 'cache-control': 'no-store' })
      },
    },
    {
      method: 'GET',
      path: '/data/{resource_id}',
      summary: 'Read a resource, optionally only some fields (D19)',
      handle({ params, url }) {
        const id = parseOrThrow(resourceId, params.resource_id, 'resource_id')
        const { fields } = parseQuery(dataQuery, url)
        return json(pickFields(toResource(requireResource(id)), fields))
      },
    },
    {
      method: 'PUT',
      path: '/resources/{id}',
      summary: "Replace a resource's data; needs Authorization: Bearer <token> (D8, D19)",
      async handle({ request, params }) {
        await requireBearer(request, tokens, (userId) => accounts.get(userId))
        const id = parseOrThrow(resourceId, params.id, 'id')
        requireResource(id)
        const { data } = await parseBody(request, updateResourceBody, limit)
        const record = (await resources.replace(id, data, world.now())) ?? throwUnknownResource(id)
        return json({ message: `Resource ${id} updated.`, resource: toResource(record) })
      },
    },
    {
      method: 'POST',
      path: '/notifications/send',
      summary: 'Queue a notification; it is delivered after a delay on the simulator clock (D20)',
      async handle({ request }) {
        const body = await parseBody(request, sendNotificationBody, limit)
        const queued = await outbox.send(body)
        return json({ id: queued.id, status: 'queued', recipients: queued.recipients, priority: queued.priority }, 202)
      },
    },
  ]
}

function throwUnknownResource(id: number): never {
  throw notFound(`No resource with id ${id}.`, { resource_id: id })
}
