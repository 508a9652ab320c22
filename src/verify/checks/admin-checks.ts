import { check } from '../check.js'
import type { CheckContext } from '../check-context.js'
import { expectConforms, expectEqual, expectError, expectStatus, expectThat, objectBody } from '../expect.js'
import { createAccount, newAccountInput, removeWhenDone, type TestAccount } from '../setup.js'

const USERS = '/api/v1.2/users'
const CREATE = `POST ${USERS}`
const READ = `GET ${USERS}/{userId}`
const UPDATE = `PUT ${USERS}/{userId}`
const DELETE = `DELETE ${USERS}/{userId}`

const userPath = (id: string) => `${USERS}/${encodeURIComponent(id)}`
const admin = (ctx: CheckContext) => ctx.probe('admin')

/** Area A: creating, reading, updating and deleting one user (spec Area A; D5, D6, D9, D13). */
export const adminUserChecks = [
  check({
    name: 'admin.create-user',
    area: 'admin',
    operation: CREATE,
    title: 'creates a user: 201, documented shape, status pending (D5)',
    writes: true,
    async run(ctx) {
      const input = newAccountInput(ctx)
      const created = await admin(ctx).send('POST', USERS, { json: input })
      if (created.status >= 200 && created.status < 300 && typeof (created.json as { id?: unknown })?.id === 'string') {
        removeWhenDone(ctx, (created.json as { id: string }).id, input.username)
      }
      expectConforms(ctx, 'admin', CREATE, created, 201)
      const body = objectBody(created)
      expectEqual(body.status, 'pending', 'status of a new user')
      expectEqual([body.username, body.email], [input.username, input.email], 'username and email')
    },
  }),
  check({
    name: 'admin.create-user.password-never-returned',
    area: 'admin',
    operation: CREATE,
    title: 'no answer ever contains the password: create, read, update, duplicate, invalid (D6)',
    writes: true,
    async run(ctx) {
      const user = await createAccount(ctx, 'admin')
      const answers = [
        await admin(ctx).send('GET', userPath(user.id!)),
        await admin(ctx).send('PUT', userPath(user.id!), { json: { email: `changed-${user.email}` } }),
        await admin(ctx).send('POST', USERS, { json: { username: user.username, email: user.email, password: user.password } }),
        await admin(ctx).send('POST', USERS, { json: { username: ctx.unique('invalid'), email: 'not-an-email', password: user.password } }),
      ]
      for (const answer of answers) {
        expectThat(
          !answer.text.includes(user.password),
          `${answer.method} answered ${answer.status} with the password in its body`,
          'no password in any answer',
          `${answer.status} …${user.password}…`,
        )
      }
    },
  }),
  check({
    name: 'admin.create-user.duplicate-username',
    area: 'admin',
    operation: CREATE,
    title: 'a taken username is 409 conflict (D5)',
    writes: true,
    async run(ctx) {
      const user = await createAccount(ctx, 'admin')
      const again = await admin(ctx).send('POST', USERS, { json: { username: user.username, email: `other-${user.email}`, password: user.password } })
      if (again.status === 201 && typeof (again.json as { id?: unknown })?.id === 'string') removeWhenDone(ctx, (again.json as { id: string }).id, user.username)
      expectError(ctx, 'admin', CREATE, again, 409, 'conflict')
    },
  }),
  check({
    name: 'admin.create-user.validation',
    area: 'admin',
    operation: CREATE,
    title: 'bad input is 400 with every problem listed, and writes nothing (D9, D11)',
    writes: true,
    async run(ctx) {
      const input = newAccountInput(ctx)
      const invalid = await admin(ctx).send('POST', USERS, { json: { username: input.username, email: 'not-an-email' } })
      if (invalid.status === 201 && typeof (invalid.json as { id?: unknown })?.id === 'string') removeWhenDone(ctx, (invalid.json as { id: string }).id, input.username)
      const body = expectError(ctx, 'admin', CREATE, invalid, 400, 'validation_failed')
      const paths = Array.isArray(body.details) ? body.details.map((detail: { path?: unknown }) => String(detail.path)) : []
      expectThat(paths.includes('email') && paths.includes('password'), 'details do not list both bad fields', 'details for email and password', JSON.stringify(paths))
      const broken = await admin(ctx).send('POST', USERS, { body: '{"username": ' })
      expectError(ctx, 'admin', CREATE, broken, 400, 'invalid_json')
      // Nothing was written: the username is still free.
      const created = await admin(ctx).send('POST', USERS, { json: input })
      if (created.status === 201) removeWhenDone(ctx, String((created.json as { id?: unknown }).id), input.username)
      expectStatus(created, 201)
    },
  }),
  check({
    name: 'admin.read-user',
    area: 'admin',
    operation: READ,
    title: 'reads a user: 200, documented shape, last_login null before any login (D6)',
    writes: true,
    async run(ctx) {
      const user = await createAccount(ctx, 'admin')
      const read = await admin(ctx).send('GET', userPath(user.id!))
      expectConforms(ctx, 'admin', READ, read, 200)
      const body = objectBody(read)
      expectEqual([body.id, body.username, body.email, body.status], [user.id, user.username, user.email, 'pending'], 'the user read back')
      expectEqual(body.last_login, null, 'last_login of a user who never logged in')
    },
  }),
  check({
    name: 'admin.read-user.unknown',
    area: 'admin',
    operation: READ,
    title: 'an unknown id is 404 not_found, the message naming the id (D13)',
    writes: false,
    async run(ctx) {
      const id = ctx.unique('missing')
      const body = expectError(ctx, 'admin', READ, await admin(ctx).send('GET', userPath(id)), 404, 'not_found')
      expectThat(String(body.message).includes(id), 'the message does not name the id', `a message naming ${id}`, String(body.message))
    },
  }),
  check({
    name: 'admin.update-user',
    area: 'admin',
    operation: UPDATE,
    title: 'updates only the given fields: 200, documented shape, updated_at (D13)',
    writes: true,
    async run(ctx) {
      const user = await createAccount(ctx, 'admin')
      const activated = await admin(ctx).send('PUT', userPath(user.id!), { json: { status: 'active' } })
      expectConforms(ctx, 'admin', UPDATE, activated, 200)
      expectEqual([objectBody(activated).status, objectBody(activated).email], ['active', user.email], 'status and email after a status update')
      const email = `new-${user.email}`
      const changed = await admin(ctx).send('PUT', userPath(user.id!), { json: { email } })
      expectConforms(ctx, 'admin', UPDATE, changed, 200)
      expectEqual([objectBody(changed).status, objectBody(changed).email], ['active', email], 'status and email after an email update')
      const read = objectBody(await admin(ctx).send('GET', userPath(user.id!)))
      expectEqual([read.status, read.email], ['active', email], 'the user read back')
    },
  }),
  check({
    name: 'admin.update-user.validation',
    area: 'admin',
    operation: UPDATE,
    title: '"pending" and a bad email are 400 and change nothing (D13)',
    writes: true,
    async run(ctx) {
      const user = await createAccount(ctx, 'admin')
      expectError(ctx, 'admin', UPDATE, await admin(ctx).send('PUT', userPath(user.id!), { json: { status: 'pending' } }), 400, 'validation_failed')
      expectError(ctx, 'admin', UPDATE, await admin(ctx).send('PUT', userPath(user.id!), { json: { email: 'not-an-email', status: 'active' } }), 400, 'validation_failed')
      const read = objectBody(await admin(ctx).send('GET', userPath(user.id!)))
      expectEqual([read.status, read.email], ['pending', user.email], 'the user after refused updates')
    },
  }),
  check({
    name: 'admin.update-user.unknown',
    area: 'admin',
    operation: UPDATE,
    title: 'an unknown id is 404 not_found, the message naming the id (D13)',
    writes: true,
    async run(ctx) {
      const id = ctx.unique('missing')
      const body = expectError(ctx, 'admin', UPDATE, await admin(ctx).send('PUT', userPath(id), { json: { status: 'active' } }), 404, 'not_found')
      expectThat(String(body.message).includes(id), 'the message does not name the id', `a message naming ${id}`, String(body.message))
    },
  }),
  check({
    name: 'admin.delete-user',
    area: 'admin',
    operation: DELETE,
    title: 'deletes: 204 without a body; then read and delete are 404 (D13)',
    writes: true,
    async run(ctx) {
      const user = await createAccount(ctx, 'admin')
      expectConforms(ctx, 'admin', DELETE, await admin(ctx).send('DELETE', userPath(user.id!)), 204)
      expectError(ctx, 'admin', READ, await admin(ctx).send('GET', userPath(user.id!)), 404, 'not_found')
      const again = expectError(ctx, 'admin', DELETE, await admin(ctx).send('DELETE', userPath(user.id!)), 404, 'not_found')
      expectThat(String(again.message).includes(user.id!), 'the message does not name the id', `a message naming ${user.id}`, String(again.message))
    },
  }),
  check({
    name: 'admin.user-lifecycle',
    area: 'admin',
    operation: UPDATE,
    title: 'create → pending → active → inactive → active → delete → 404, each read back (spec states)',
    writes: true,
    async run(ctx) {
      const user = await createAccount(ctx, 'admin')
      await expectStatusRead(ctx, user, 'pending')
      for (const status of ['active', 'inactive', 'active'] as const) {
        expectStatus(await admin(ctx).send('PUT', userPath(user.id!), { json: { status } }), 200)
        await expectStatusRead(ctx, user, status)
      }
      expectStatus(await admin(ctx).send('DELETE', userPath(user.id!)), 204)
      expectStatus(await admin(ctx).send('GET', userPath(user.id!)), 404)
    },
  }),
]

async function expectStatusRead(ctx: CheckContext, user: TestAccount, status: string): Promise<void> {
  const read = await admin(ctx).send('GET', userPath(user.id!))
  expectStatus(read, 200)
  expectEqual(objectBody(read).status, status, 'status read back')
}
