import { notFound, validationFailed } from '../../kernel/api-error.js'
import { parseBody, readJsonBody } from '../../kernel/json-body.js'
import { json } from '../../kernel/json-response.js'
import { parseQuery } from '../../kernel/query.js'
import type { RouteDefinition } from '../../kernel/route.js'
import type { Account } from '../../world/accounts/account-schema.js'
import type { AccountStore } from '../../world/accounts/account-store.js'
import type { World } from '../../world/world.js'
import type { CoreCollections } from './collections.js'
import { validateBatch } from './ingestion.js'
import type { ProductCatalogue } from './product-catalogue.js'
import { createUserBody, listUsersQuery, updateProductBody } from './schemas.js'

/** Area B's projection of a shared account (D5): id, username, email, created_at. */
function toCoreUser(account: Account) {
  return { id: account.id, username: account.username, email: account.email, created_at: account.created_at }
}

/** Area B: unprefixed core interface (users, products, ingestion); success codes per D10. */
export function coreRoutes(world: World, accounts: AccountStore, catalogue: ProductCatalogue, collections: CoreCollections): RouteDefinition[] {
  const limit = { limit: world.limits.bodyBytes }

  return [
    {
      method: 'GET',
      path: '/users',
      summary: 'List users with limit/offset (D12)',
      handle({ url }) {
        const query = parseQuery(listUsersQuery, url)
        const all = accounts.sorted()
        return json(all.slice(query.offset, query.offset + query.limit).map(toCoreUser), 200, {
          'x-total-count': String(all.length),
        })
      },
    },
    {
      method: 'POST',
      path: '/users',
      summary: 'Create a user (shared with Area A, starts pending: D5)',
      async handle({ request }) {
        const body = await parseBody(request, createUserBody, limit)
        return json(toCoreUser(await accounts.register(body)), 201)
      },
    },
    {
      method: 'GET',
      path: '/products/{id}',
      summary: 'Read a product (D14)',
      handle({ params }) {
        return json(catalogue.get(params.id!) ?? throwUnknownProduct(params.id!))
      },
    },
    {
      method: 'PUT',
      path: '/products/{id}',
      summary: 'Update name, description, price and/or stock (D14)',
      async handle({ request, params }) {
        const id = params.id!
        if (!catalogue.get(id)) throwUnknownProduct(id)
        const { id: bodyId, ...changes } = await parseBody(request, updateProductBody, limit)
        if (bodyId !== undefined && bodyId !== id) {
          throw validationFailed([{ path: 'id', message: `is immutable; it must be omitted or equal "${id}"` }])
        }
        return json((await catalogue.update(id, changes)) ?? throwUnknownProduct(id))
      },
    },
    {
      method: 'POST',
      path: '/ingest/data',
      summary: 'Ingest a batch of sensor data points, atomically (D15)',
      async handle({ request }) {
        const batches = validateBatch(await readJsonBody(request, limit), world.limits.ingestPoints)
        const receivedAt = world.now()
        const batchId = world.nextId()
        let total = 0
        for (const batch of batches) {
          total += batch.points.length
          await collections.readings.create({ id: world.nextId(), batch_id: batchId, sensor_id: batch.sensor_id, received_at: receivedAt, points: batch.points })
        }
        return json({
          status: 'success',
          message: `Ingested ${total} data point${total === 1 ? '' : 's'} for ${batches.length} sensor${batches.length === 1 ? '' : 's'}.`,
          records_processed: total,
          batch_id: batchId,
        })
      },
    },
  ]
}

function throwUnknownProduct(id: string): never {
  throw notFound(`No product with id "${id}".`, { id })
}
