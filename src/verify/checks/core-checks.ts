import { check } from '../check.js'
import type { CheckContext } from '../check-context.js'
import { arrayBody, expectConforms, expectEqual, expectError, expectStatus, expectThat, objectBody } from '../expect.js'
import { CheckSkipped } from '../failures.js'
import { newAccountInput, removeWhenDone, setupBody } from '../setup.js'

const LIST = 'GET /users'
const CREATE = 'POST /users'
const READ_PRODUCT = 'GET /products/{id}'
const UPDATE_PRODUCT = 'PUT /products/{id}'
const INGEST = 'POST /ingest/data'

const core = (ctx: CheckContext) => ctx.probe('core')
const productPath = (id: string) => `/products/${encodeURIComponent(id)}`

/** Area B: users (shared with A), products, atomic ingestion (D5, D10, D12, D14, D15). */
export const coreChecks = [
  check({
    name: 'core.list-users',
    area: 'core',
    operation: LIST,
    title: 'lists users: 200, documented shape, X-Total-Count (D10, D12)',
    writes: false,
    async run(ctx) {
      expectConforms(ctx, 'core', LIST, await core(ctx).send('GET', '/users', { query: { limit: '5' } }), 200)
    },
  }),
  check({
    name: 'core.list-users.limit-offset',
    area: 'core',
    operation: LIST,
    title: 'limit and offset select a window of one order; limit=0 and offset=-1 are 400 (D12)',
    writes: false,
    async run(ctx) {
      const two = await core(ctx).send('GET', '/users', { query: { limit: '2', offset: '0' } })
      expectStatus(two, 200)
      const total = Number(two.headers.get('x-total-count'))
      expectThat(
        arrayBody(two).length === Math.min(2, total),
        `limit=2 answered ${arrayBody(two).length} users of ${total}`,
        String(Math.min(2, total)),
        String(arrayBody(two).length),
      )
      if (total >= 2) {
        const second = arrayBody(await core(ctx).send('GET', '/users', { query: { limit: '1', offset: '1' } }))
        expectEqual(
          second.map((user) => user.id),
          [arrayBody(two)[1]!.id],
          'the user at offset 1',
        )
      }
      for (const query of [{ limit: '0' }, { offset: '-1' }] as Array<Record<string, string>>)
        expectError(ctx, 'core', LIST, await core(ctx).send('GET', '/users', { query }), 400, 'validation_failed')
    },
  }),
  check({
    name: 'core.create-user',
    area: 'core',
    operation: CREATE,
    title: 'creates a user: 201, documented shape without password or status (D5, D10)',
    writes: true,
    async run(ctx) {
      const input = newAccountInput(ctx)
      const created = await core(ctx).send('POST', '/users', { json: input })
      const id = (created.json as { id?: unknown } | undefined)?.id
      if (created.status < 300 && typeof id === 'string') removeWhenDone(ctx, id, input.username)
      expectConforms(ctx, 'core', CREATE, created, 201)
      expectEqual([objectBody(created).username, objectBody(created).email], [input.username, input.email], 'username and email')
    },
  }),
  check({
    name: 'core.create-user.shared-accounts',
    area: 'core',
    operation: CREATE,
    title: 'a user created here is the same account in Area A, pending (D5)',
    writes: true,
    async run(ctx) {
      if (!ctx.has('admin')) throw new CheckSkipped('needs Area A to read the account back: pass --target or --base admin=<url>')
      const input = newAccountInput(ctx)
      const body = setupBody(await core(ctx).send('POST', '/users', { json: input }), 'create a user in Area B')
      removeWhenDone(ctx, String(body.id), input.username)
      const read = await ctx.probe('admin').send('GET', `/api/v1.2/users/${encodeURIComponent(String(body.id))}`)
      expectStatus(read, 200)
      expectEqual([objectBody(read).username, objectBody(read).status], [input.username, 'pending'], 'the account as Area A reads it')
    },
  }),
  check({
    name: 'core.create-user.validation',
    area: 'core',
    operation: CREATE,
    title: 'missing fields are 400 validation_failed with details (D11)',
    writes: true,
    async run(ctx) {
      const body = expectError(ctx, 'core', CREATE, await core(ctx).send('POST', '/users', { json: { username: ctx.unique('user') } }), 400, 'validation_failed')
      expectThat(Array.isArray(body.details) && body.details.length >= 2, 'details do not list email and password', 'two or more details', JSON.stringify(body.details))
    },
  }),
  check({
    name: 'core.product.read',
    area: 'core',
    operation: READ_PRODUCT,
    title: 'reads a product: 200, documented shape (D14)',
    writes: false,
    async run(ctx) {
      const id = ctx.fixture('product')
      const read = await core(ctx).send('GET', productPath(id))
      expectConforms(ctx, 'core', READ_PRODUCT, read, 200)
      expectEqual(objectBody(read).id, id, 'id')
    },
  }),
  check({
    name: 'core.product.unknown',
    area: 'core',
    operation: READ_PRODUCT,
    title: 'an unknown product is 404 not_found (D14)',
    writes: false,
    async run(ctx) {
      expectError(ctx, 'core', READ_PRODUCT, await core(ctx).send('GET', productPath(ctx.unique('missing'))), 404, 'not_found')
    },
  }),
  check({
    name: 'core.product.update',
    area: 'core',
    operation: UPDATE_PRODUCT,
    title: 'an update answers the full product; the values read are written back unchanged (D14)',
    writes: true,
    async run(ctx) {
      const id = ctx.fixture('product')
      const before = setupBody(await core(ctx).send('GET', productPath(id)), 'read the product')
      const { id: _id, ...fields } = before
      const updated = await core(ctx).send('PUT', productPath(id), { json: fields })
      expectConforms(ctx, 'core', UPDATE_PRODUCT, updated, 200)
      expectEqual(objectBody(updated), before, 'the product after writing back its own values')
    },
  }),
  check({
    name: 'core.product.update.validation',
    area: 'core',
    operation: UPDATE_PRODUCT,
    title: 'a negative price, 3 decimals or a fractional stock is 400 and changes nothing (D14)',
    writes: true,
    async run(ctx) {
      const id = ctx.fixture('product')
      const before = setupBody(await core(ctx).send('GET', productPath(id)), 'read the product')
      try {
        for (const json of [{ price: -1 }, { price: 10.555 }, { stock: 1.5 }]) {
          expectError(ctx, 'core', UPDATE_PRODUCT, await core(ctx).send('PUT', productPath(id), { json }), 400, 'validation_failed')
        }
        expectEqual(setupBody(await core(ctx).send('GET', productPath(id)), 'read the product'), before, 'the product after refused updates')
      } finally {
        // Should a bad value have been taken, the product is put back as it was.
        const { id: _id, ...fields } = before
        await core(ctx).send('PUT', productPath(id), { json: fields })
      }
    },
  }),
  check({
    name: 'core.ingest',
    area: 'core',
    operation: INGEST,
    title: 'a valid batch: 200, documented shape, records_processed = batch length (D15)',
    writes: true,
    async run(ctx) {
      const sensor = ctx.unique('sensor')
      const batch = [0, 1, 2].map((i) => ({ timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), value: 20 + i / 4, sensor_id: sensor }))
      const answer = await core(ctx).send('POST', '/ingest/data', { json: batch })
      expectConforms(ctx, 'core', INGEST, answer, 200)
      expectEqual(objectBody(answer).records_processed, 3, 'records_processed')
      ctx.leaveBehind(`ingested points of sensors ${ctx.prefix}sensor-*`)
    },
  }),
  check({
    name: 'core.ingest.atomic',
    area: 'core',
    operation: INGEST,
    title: 'one bad point rejects the whole batch naming its index; an empty batch is 400 (D15)',
    writes: true,
    async run(ctx) {
      const sensor = ctx.unique('sensor')
      const batch = [
        { timestamp: '2026-01-01T00:00:00Z', value: 1, sensor_id: sensor },
        { timestamp: 'yesterday', value: 'high', sensor_id: sensor },
        { timestamp: '2026-01-01T00:02:00Z', value: 3, sensor_id: sensor },
      ]
      const body = expectError(ctx, 'core', INGEST, await core(ctx).send('POST', '/ingest/data', { json: batch }), 400, 'validation_failed')
      expectEqual(body.invalid_indexes, [1], 'invalid_indexes')
      expectError(ctx, 'core', INGEST, await core(ctx).send('POST', '/ingest/data', { json: [] }), 400, 'validation_failed')
    },
  }),
]
