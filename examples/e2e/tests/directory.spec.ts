// Each test adds the same names: worlds keep them apart, so each sees exactly its own.
import { expect, test } from 'multi-area-mock/playwright'
import { addPerson, browserNames, serverNames } from './helpers.js'

test('the server-rendered page lists exactly the people this test added', async ({ page, mock }) => {
  await page.goto('/')
  await expect(page.locator('#server-total')).toHaveText('0 people')
  await addPerson(page, 'ada')
  await addPerson(page, 'grace')
  expect(await serverNames(page)).toEqual(['ada', 'grace'])
  await expect(page.locator('#server-total')).toHaveText('2 people')
  await expect(mock).toHaveReceivedRequest({ method: 'POST', path: '/admin/api/v1.2/users', status: 201 }, { times: 2 })
})

test("the browser's own fetches see the same world as the server", async ({ page, mock }) => {
  await page.goto('/')
  await addPerson(page, 'ada')
  await addPerson(page, 'linus')
  expect(await browserNames(page)).toEqual(['ada', 'linus'])
  // Sent by the browser, straight to the simulator server, from the app's origin.
  const origin = new URL(page.url()).origin
  await expect(mock).toHaveReceivedRequest({ method: 'GET', path: '/core/users', query: { limit: '100' }, headers: { origin } })
})

test('people added from the browser show up in the server-rendered page', async ({ page, mock }) => {
  await page.goto('/')
  const status = await page.evaluate(async () => {
    const api = document.querySelector<HTMLMetaElement>('meta[name="api-url"]')!.content
    const response = await fetch(`${api}/core/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'margaret', email: 'margaret@example.com', password: 'long-enough' }),
    })
    return response.status
  })
  expect(status).toBe(201)
  await page.reload()
  expect(await serverNames(page)).toEqual(['margaret'])
  expect(await browserNames(page)).toEqual(['margaret'])
  expect((await mock.state()).accounts.users.map((user) => user.username)).toEqual(['margaret'])
})

test.describe('with a named scenario', () => {
  test.use({ mockScenario: 'pending-users' })

  test('the world starts from that scenario, for this test only', async ({ page }) => {
    await page.goto('/')
    await expect(page.locator('#server-total')).toHaveText('13 people')
    await expect(page.locator('#server-users li[data-username="new.hire"]')).toHaveText('new.hire (new.hire@example.com, pending)')
    await expect(page.locator('#browser-status')).toHaveText('13 people loaded in the browser')
  })
})

test.describe('when the app calls the API at another origin', () => {
  test.use({ mockOrigins: ['https://api.example.test'] })

  test('the simulator answers there, and under any loopback name, in the same world', async ({ page, mock }) => {
    await page.goto('/')
    await addPerson(page, 'ada')
    const port = new URL(mock.serverUrl).port
    const seen = await page.evaluate(
      async (urls) => {
        const names = []
        for (const url of urls) names.push(((await (await fetch(url)).json()) as Array<{ username: string }>).map((user) => user.username))
        return names
      },
      ['https://api.example.test/core/users', `http://localhost:${port}/core/users`],
    )
    expect(seen).toEqual([['ada'], ['ada']])
    // Two page loads (before and after adding ada), then the two fetches above.
    await expect(mock).toHaveReceivedRequest({ method: 'GET', path: '/core/users' }, { times: 4 })
  })
})
