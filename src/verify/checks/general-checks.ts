import { check } from '../check.js'
import type { CheckContext } from '../check-context.js'
import { expectConforms, expectEqual, expectError, expectThat, objectBody } from '../expect.js'
import { loginAccount, logIn, setupBody } from '../setup.js'

const READ = 'GET /data/{resource_id}'
const UPDATE = 'PUT /resources/{id}'
const NOTIFY = 'POST /notifications/send'

const general = (ctx: CheckContext) => ctx.probe('general')
const dataPath = (id: string) => `/data/${encodeURIComponent(id)}`
const resourcePath = (id: string) => `/resources/${encodeURIComponent(id)}`
const TIMESTAMPS = new Set(['id', 'created_at', 'updated_at'])

/** A resource's own fields, as `PUT` takes them back (D19). */
function ownFields(resource: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(resource).filter(([key]) => !TIMESTAMPS.has(key)))
}

/** Area D: data lookup, the resource update, notifications (D19, D20). */
export const generalChecks = [
  check({
    name: 'general.data.read',
    area: 'general',
    operation: READ,
    title: 'reads a resource: 200, documented shape; fields= keeps only those keys and id (D19)',
    writes: false,
    async run(ctx) {
      const id = ctx.fixture('resource')
      const read = await general(ctx).send('GET', dataPath(id))
      expectConforms(ctx, 'general', READ, read, 200)
      const body = objectBody(read)
      expectEqual(String(body.id), id, 'id')
      const field = Object.keys(ownFields(body))[0]
      if (field === undefined) return
      const picked = await general(ctx).send('GET', dataPath(id), { query: { fields: `${field},${ctx.unique('no-such-field')}` } })
      expectConforms(ctx, 'general', READ, picked, 200)
      expectEqual(Object.keys(objectBody(picked)).sort(), ['id', field].sort(), `keys of fields=${field},<unknown>`)
    },
  }),
  check({
    name: 'general.data.invalid-or-unknown',
    area: 'general',
    operation: READ,
    title: 'a non-integer id is 400; an unknown id is 404 not_found (D19)',
    writes: false,
    async run(ctx) {
      expectError(ctx, 'general', READ, await general(ctx).send('GET', dataPath('abc')), 400, 'validation_failed')
      expectError(ctx, 'general', READ, await general(ctx).send('GET', dataPath('2147483646')), 404, 'not_found')
    },
  }),
  check({
    name: 'general.update-resource',
    area: 'general',
    operation: UPDATE,
    title: 'with a token: 200 {message, resource}, documented shape; its own data is written back (D8, D19)',
    writes: true,
    async run(ctx) {
      const id = ctx.fixture('resource')
      const token = await logIn(ctx, await loginAccount(ctx))
      const before = setupBody(await general(ctx).send('GET', dataPath(id)), 'read the resource')
      const updated = await general(ctx).send('PUT', resourcePath(id), { json: { data: ownFields(before) }, headers: { authorization: `Bearer ${token}` } })
      expectConforms(ctx, 'general', UPDATE, updated, 200)
      const resource = objectBody(updated).resource as Record<string, unknown>
      expectEqual(ownFields(resource), ownFields(before), 'the resource after writing back its own data')
    },
  }),
  check({
    name: 'general.update-resource.validation',
    area: 'general',
    operation: UPDATE,
    title: 'with a token, data that is not an object is 400 and changes nothing (D19)',
    writes: true,
    async run(ctx) {
      const id = ctx.fixture('resource')
      const token = await logIn(ctx, await loginAccount(ctx))
      const before = setupBody(await general(ctx).send('GET', dataPath(id)), 'read the resource')
      const auth = { authorization: `Bearer ${token}` }
      try {
        for (const json of [{ data: 'text' }, { data: ['a', 'b'] }, {}]) {
          expectError(ctx, 'general', UPDATE, await general(ctx).send('PUT', resourcePath(id), { json, headers: auth }), 400, 'validation_failed')
        }
        expectEqual(ownFields(setupBody(await general(ctx).send('GET', dataPath(id)), 'read the resource')), ownFields(before), 'the resource after refused updates')
      } finally {
        await general(ctx).send('PUT', resourcePath(id), { json: { data: ownFields(before) }, headers: auth })
      }
    },
  }),
  check({
    name: 'general.notify',
    area: 'general',
    operation: NOTIFY,
    title: 'queues a notification: 202, documented shape, status queued, priority normal by default (D20)',
    writes: true,
    async run(ctx) {
      const answer = await general(ctx).send('POST', '/notifications/send', { json: { recipient_ids: [1, 2, 2], message: ctx.unique('notification') } })
      ctx.leaveBehind(`notifications whose message starts with ${ctx.prefix}`)
      expectConforms(ctx, 'general', NOTIFY, answer, 202)
      const body = objectBody(answer)
      expectEqual([body.status, body.priority], ['queued', 'normal'], 'status and priority')
      expectThat(
        Array.isArray(body.recipients) && body.recipients.includes(1) && body.recipients.includes(2),
        'recipients do not name 1 and 2',
        '[1, 2]',
        JSON.stringify(body.recipients),
      )
    },
  }),
  check({
    name: 'general.notify.validation',
    area: 'general',
    operation: NOTIFY,
    title: 'missing or empty fields, recipient 0 and an unknown priority are 400 (D20)',
    writes: true,
    async run(ctx) {
      const message = ctx.unique('notification')
      for (const json of [
        { message },
        { recipient_ids: [], message },
        { recipient_ids: [0], message },
        { recipient_ids: [1] },
        { recipient_ids: [1], message, priority: 'urgent' },
      ]) {
        expectError(ctx, 'general', NOTIFY, await general(ctx).send('POST', '/notifications/send', { json }), 400, 'validation_failed')
      }
    },
  }),
]
