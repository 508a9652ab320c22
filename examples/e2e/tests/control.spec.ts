import { expect, test } from 'multi-area-mock/playwright'
import { addPerson, serverNames } from './helpers.js'

test("mock.state() and mock.journal show this test's data and nobody else's", async ({ page, mock }) => {
  await page.goto('/')
  await addPerson(page, 'ada', 'ada@state.example')
  const state = await mock.state()
  expect(state.accounts.users.map((user) => [user.username, user.email, user.status])).toEqual([['ada', 'ada@state.example', 'pending']])
  const created = await mock.journal.find({ method: 'POST', area: 'admin' })
  expect(created.map((entry) => [entry.status, entry.world, entry.requestBody])).toEqual([
    [201, mock.worldId, { username: 'ada', email: 'ada@state.example', password: '[redacted]' }],
  ])
})

test('mock.reset() takes the world back to its scenario and clock', async ({ page, mock }) => {
  await page.goto('/')
  await addPerson(page, 'ada')
  await mock.clock.advance('1d')
  await mock.reset()
  await page.reload()
  expect(await serverNames(page)).toEqual([])
  expect((await mock.clock.now()).now).toBe('2026-01-01T00:00:00.000Z')
  // The journal starts again too: only the reload's requests are in it.
  await expect(mock).not.toHaveReceivedRequest({ method: 'POST' })
  await expect(mock).toHaveReceivedRequest({ method: 'GET', path: '/admin/api/v1.2/users' }, { times: 1 })
})
