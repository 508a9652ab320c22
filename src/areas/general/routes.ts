import type * as z from 'zod'
import { notFound } from '../../kernel/errors/api-error.js'
import { json } from '../../kernel/http/json/json-response.js'
import { defineRoute } from '../../kernel/routing/route.js'
import { DEFAULT_PASSWORD } from '../../world/accounts/account-schema.js'
import type { AccountStore } from '../../world/accounts/account-store.js'
import type { World } from '../../world/world.js'
import { requireBearer } from './auth/bearer-auth.js'
import { pickFields } from './resources/field-filter.js'
import type { Authenticator } from './auth/login.js'
import { DELIVERY_DELAY_MS, type Outbox } from './notifications.js'
import { type ResourceStore, toResource } from './resources/resource-store.js'
import {
  dataParams,
  dataQuery,
  dataView,
  loginBody,
  loginResult,
  queuedNotification,
  resourceParams,
  resourceUpdateResult,
  sendNotificationBody,
  unknownResourceExtra,
  updateResourceBody,
} from './schemas.js'
import type { AccessTokens } from './auth/tokens.js'

/** What Area D's routes work on: the world, the shared accounts and the area's per-simulator domain objects. */
export interface GeneralRouteContext {
  world: World
  accounts: AccountStore
  authenticator: Authenticator
  tokens: AccessTokens
  resources: ResourceStore
  outbox: Outbox
}

/**
 * Area D: login, data lookup, resource update (Bearer auth), notifications (D6–D8, D19, D20).
 * Its return type is inferred, not declared: the operation types (operations.ts) are read from it.
 */
export function generalRoutes({ world, accounts, authenticator, tokens, resources, outbox }: GeneralRouteContext) {
  const requireResource = (id: number) => resources.get(id) ?? throwUnknownResource(id)
  const unknownResource = { code: 'not_found', extra: unknownResourceExtra, description: 'No resource with that id; `resource_id` repeats it (D19).' } as const
  const someAccount = (status: 'active' | 'inactive') => accounts.sorted().find((account) => account.status === status)!
  const someResource = () => String(resources.first()!.id)

  return [
    defineRoute({
      method: 'POST',
      path: '/auth/login',
      operationId: 'login',
      summary: 'Log in',
      description:
        "Answers an HS256 JWT for `PUT /general/resources/{id}`, valid for `expires_in` seconds of the simulator clock. Pending and active users may log in, and a login sets the user's `last_login`; an inactive user is a 403. A wrong password and an unknown username get the same 401.",
      body: loginBody,
      responses: { 200: { body: loginResult } },
      errors: ['invalid_credentials', 'account_inactive'],
      examples: () => [
        { summary: 'An active user', body: { username: someAccount('active').username, password: DEFAULT_PASSWORD } },
        {
          name: 'wrongPassword',
          summary: 'A wrong password (or an unknown username: the same answer)',
          body: { username: someAccount('active').username, password: 'not-the-password' },
        },
        { name: 'inactive', summary: 'An inactive user with the right password', body: { username: someAccount('inactive').username, password: DEFAULT_PASSWORD } },
      ],
      async handle({ body }) {
        const account = await authenticator.authenticate(body.username, body.password)
        const { token, expiresIn } = await tokens.issue(account)
        await accounts.touchLogin(account.id)
        return json({ token, token_type: 'Bearer', expires_in: expiresIn } satisfies z.infer<typeof loginResult>, 200, { 'cache-control': 'no-store' })
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/data/{resource_id}',
      operationId: 'getData',
      summary: 'Read a resource',
      description:
        'A resource reads as `{id, ...data, created_at, updated_at}`, what `PUT /general/resources/{id}` writes. `fields=a,b` keeps only those keys and `id`, ignoring unknown names. The id is a positive integer (400 otherwise); an unknown one is a 404 with `resource_id`.',
      params: dataParams,
      query: dataQuery,
      responses: { 200: { body: dataView } },
      errors: [unknownResource],
      examples: () => [
        { summary: 'A whole resource', params: { resource_id: someResource() } },
        { name: 'fields', summary: 'Only some fields (and id)', params: { resource_id: someResource() }, query: { fields: 'title,owner,status' } },
        { name: 'unknown', params: { resource_id: '987654' } },
        { name: 'badId', summary: 'An id that is not a positive integer', params: { resource_id: 'first' } },
      ],
      handle({ params, query }) {
        return json(pickFields(toResource(requireResource(params.resource_id)), query.fields))
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/resources/{id}',
      operationId: 'updateResource',
      summary: "Replace a resource's data",
      description:
        'Needs `Authorization: Bearer <token>` with a token from `POST /general/auth/login`. `data`, a JSON object, replaces every field of the resource but `id` and the timestamps; keys `__proto__`, `constructor` and `prototype` are refused at any depth. An unknown id is a 404, whatever the body.',
      params: resourceParams,
      body: updateResourceBody,
      responses: { 200: { body: resourceUpdateResult } },
      errors: [unknownResource],
      security: { scheme: 'bearer', verify: (request) => requireBearer(request, tokens, (userId) => accounts.get(userId)) },
      async examples() {
        const { token } = await tokens.issue(someAccount('active'))
        const authorization = { authorization: `Bearer ${token}` }
        const body = { data: { title: 'Quarterly report', status: 'published', tags: ['finance', 'q3'] } }
        return [
          { summary: 'New data, with a token from POST /auth/login', params: { id: someResource() }, body, headers: authorization },
          { name: 'noToken', summary: 'No Authorization header', params: { id: someResource() }, body },
          { name: 'notAnObject', summary: '`data` must be a JSON object', params: { id: someResource() }, body: { data: ['finance'] }, headers: authorization },
        ]
      },
      // After the token and the id, before the body is read: an unknown resource is 404 whatever the body.
      guard({ params }) {
        requireResource(params.id)
      },
      async handle({ params: { id }, body: { data } }) {
        const record = (await resources.replace(id, data, world.now())) ?? throwUnknownResource(id)
        return json({ message: `Resource ${id} updated.`, resource: toResource(record) })
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/notifications/send',
      operationId: 'sendNotification',
      summary: 'Send a notification',
      description: `Queued at once (202) for \`recipient_ids\` (positive integers, repeats counted once in \`recipients\`) with a non-blank \`message\`, and delivered ${DELIVERY_DELAY_MS.high / 1000} s (\`high\`), ${DELIVERY_DELAY_MS.normal / 1000} s (\`normal\`) or ${DELIVERY_DELAY_MS.low / 1000} s (\`low\`) after it is queued, on the simulator clock; \`GET /__mock/state\` shows when.`,
      body: sendNotificationBody,
      responses: { 202: { body: queuedNotification } },
      examples: () => [
        { summary: 'Three recipients, one repeated', body: { recipient_ids: [1, 2, 2, 3], message: 'The quarterly report is published.', priority: 'high' } },
        { name: 'missing', summary: 'Required fields missing', body: { priority: 'urgent' } },
      ],
      async handle({ body }) {
        const queued = await outbox.send(body)
        return json({ id: queued.id, status: 'queued', recipients: queued.recipients, priority: queued.priority } satisfies z.infer<typeof queuedNotification>, 202)
      },
    }),
  ]
}

function throwUnknownResource(id: number): never {
  throw notFound(`No resource with id ${id}.`, { resource_id: id })
}
