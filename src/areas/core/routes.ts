import * as z from 'zod'
import { notFound, validationFailed } from '../../kernel/errors/api-error.js'
import { json } from '../../kernel/http/json/json-response.js'
import { defineRoute, rawJsonBody } from '../../kernel/routing/route.js'
import { type Account, conflictExtra } from '../../world/accounts/account-schema.js'
import type { AccountStore } from '../../world/accounts/account-store.js'
import type { World } from '../../world/world.js'
import type { CoreCollections } from './collections.js'
import { validateBatch } from './ingestion/ingestion.js'
import type { ProductCatalogue } from './product-catalogue.js'
import type { ReadingWindow } from './ingestion/reading-window.js'
import {
  type CoreUser,
  coreUser,
  createUserBody,
  ingestionBatch,
  ingestionResult,
  invalidBatchExtra,
  listUsersQuery,
  oversizedBatchExtra,
  productParams,
  productResponse,
  unknownProductExtra,
  updateProductBody,
} from './schemas.js'

/** Area B's projection of a shared account (D5): id, username, email, created_at. */
function toCoreUser(account: Account): CoreUser {
  return { id: account.id, username: account.username, email: account.email, created_at: account.created_at }
}

/** What Area B's routes work on. */
export interface CoreRouteContext {
  world: World
  accounts: AccountStore
  catalogue: ProductCatalogue
  collections: CoreCollections
  readings: ReadingWindow
}

/**
 * Area B: unprefixed core interface (users, products, ingestion); success codes per D10.
 * Its return type is inferred, not declared: the operation types (operations.ts) are read from it.
 */
export function coreRoutes({ world, accounts, catalogue, collections, readings }: CoreRouteContext) {
  const unknownProduct = { code: 'not_found', extra: unknownProductExtra, description: 'No product with that id (D14).' } as const
  const someProduct = () => ({ id: collections.products.all()[0]!.id })

  return [
    defineRoute({
      method: 'GET',
      path: '/users',
      operationId: 'listUsers',
      summary: 'List users',
      description:
        'The users shared with Area A, ordered by `created_at`, then `id`; pages by `limit` (1 to 100, default 20) and `offset` (from 0). `X-Total-Count` gives the number of users.',
      query: listUsersQuery,
      responses: { 200: { body: z.array(coreUser), headers: ['X-Total-Count'] } },
      examples: () => [
        { summary: 'Three users after the first ten', query: { limit: '3', offset: '10' } },
        { name: 'badQuery', summary: 'Out-of-range paging', query: { limit: '0', offset: '-1' } },
      ],
      handle({ query }) {
        const all = accounts.sorted()
        return json(all.slice(query.offset, query.offset + query.limit).map(toCoreUser), 200, {
          'x-total-count': String(all.length),
        })
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/users',
      operationId: 'createUser',
      summary: 'Create a user',
      description:
        'The same users as Area A, shown with `id`, `username`, `email` and `created_at`; a new one starts `pending`. A username already taken, in any case, is a 409 `conflict`.',
      body: createUserBody,
      responses: { 201: { body: coreUser } },
      errors: [{ code: 'conflict', extra: conflictExtra }],
      examples: () => [
        { body: { username: 'ada.lovelace', email: 'ada@example.com', password: 'analytical-engine' } },
        {
          name: 'taken',
          summary: 'A username already taken (any case)',
          body: { username: accounts.sorted()[0]!.username.toUpperCase(), email: 'someone@example.com', password: 'analytical-engine' },
        },
      ],
      async handle({ body }) {
        return json(toCoreUser(await accounts.register(body)), 201)
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/products/{id}',
      operationId: 'getProduct',
      summary: 'Read a product',
      description: 'Products come from a catalogue with fixed ids (`prod-1001`...). An unknown id is a 404 with `id`.',
      params: productParams,
      responses: { 200: { body: productResponse } },
      errors: [unknownProduct],
      examples: () => [{ params: someProduct() }, { name: 'unknown', params: { id: 'prod-0' } }],
      handle({ params }) {
        return json(catalogue.get(params.id) ?? throwUnknownProduct(params.id))
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/products/{id}',
      operationId: 'updateProduct',
      summary: 'Update a product',
      description:
        "Changes only the fields given: `name`, `description`, `price` (0 to 10^12, at most two decimals) and `stock` (an integer from 0). `id` in the body must be absent or equal to the path's: it cannot change (400 otherwise). `{}` changes nothing and returns the product. An unknown id is a 404, whatever the body.",
      params: productParams,
      body: updateProductBody,
      responses: { 200: { body: productResponse } },
      errors: [unknownProduct],
      examples: () => [
        { summary: 'A new price and stock', params: someProduct(), body: { price: 79.99, stock: 12 } },
        { name: 'invalid', summary: 'Too many decimals, negative stock', params: someProduct(), body: { price: 10.555, stock: -1 } },
      ],
      // Before the body is read: an unknown product is 404 whatever the body.
      guard({ params }) {
        if (!catalogue.get(params.id)) throwUnknownProduct(params.id)
      },
      async handle({ params: { id }, body: { id: bodyId, ...changes } }) {
        if (bodyId !== undefined && bodyId !== id) {
          throw validationFailed([{ path: 'id', message: `is immutable; it must be omitted or equal "${id}"` }])
        }
        return json((await catalogue.update(id, changes)) ?? throwUnknownProduct(id))
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/ingest/data',
      operationId: 'ingestData',
      summary: 'Ingest a batch of sensor readings',
      description:
        'The batch is checked whole before any of it is stored: every point needs an ISO 8601 `timestamp`, a finite `value` and a non-empty `sensor_id`. One bad point rejects the batch (400, `invalid_indexes` lists every bad one); an empty batch is a 400 and one over `limit` points a 413. Accepted points are kept per sensor in a bounded window (`--sensor-window`, `--ingest-window`); the oldest go first. `GET /__mock/state` shows them under `core.readings` and the running counts under `core.ingestion`.',
      // Validated as a whole by `validateBatch`, which lists every bad point's index (D15).
      body: rawJsonBody(ingestionBatch(world.limits.ingestPoints)),
      responses: { 200: { body: ingestionResult } },
      errors: [
        { code: 'validation_failed', extra: invalidBatchExtra, description: 'Bad points: `invalid_indexes` lists them and nothing is stored (D15).' },
        { code: 'payload_too_large', extra: oversizedBatchExtra, description: 'The body is over the size limit, or the batch has more points than `limit` (D15).' },
      ],
      examples: () => [
        {
          summary: 'Two sensors, three points',
          body: [
            { timestamp: '2026-01-01T00:00:00Z', value: 21.5, sensor_id: 'greenhouse-1' },
            { timestamp: '2026-01-01T00:01:00Z', value: 21.7, sensor_id: 'greenhouse-1' },
            { timestamp: '2026-01-01T00:00:00Z', value: 48.2, sensor_id: 'humidity-3' },
          ],
        },
        {
          name: 'invalid',
          summary: 'One bad point rejects the batch',
          body: [
            { timestamp: '2026-01-01T00:00:00Z', value: 1, sensor_id: 's1' },
            { timestamp: 'yesterday', value: 'high' },
          ],
        },
      ],
      handle({ body }) {
        const batch = validateBatch(body, world.limits.ingestPoints)
        const batchId = world.nextId()
        // Validated as a whole first (D15), so storing cannot stop half-way; kept in batch order.
        for (const point of batch.points) readings.append(point.sensor_id, Date.parse(point.timestamp), point.value)
        const total = batch.points.length
        return json({
          status: 'success',
          message: `Ingested ${total} data point${total === 1 ? '' : 's'} for ${batch.sensors} sensor${batch.sensors === 1 ? '' : 's'}.`,
          records_processed: total,
          batch_id: batchId,
        } satisfies z.infer<typeof ingestionResult>)
      },
    }),
  ]
}

function throwUnknownProduct(id: string): never {
  throw notFound(`No product with id "${id}".`, { id })
}
