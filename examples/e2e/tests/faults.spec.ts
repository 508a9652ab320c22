import { expect, test } from 'multi-area-mock/playwright'

test("a fault on the admin API shows the server-rendered page's error state", async ({ page, mock }) => {
  await mock.faults.set([{ route: '/admin/api/v1.2/users', status: 503 }])
  const response = await page.goto('/')
  expect(response?.status()).toBe(503)
  await expect(page.locator('#server-error')).toHaveText('The directory is unavailable: the admin API answered 503 (service_unavailable).')
  // The browser's own request goes to another area: untouched by the rule.
  await expect(page.locator('#browser-status')).toHaveText('0 people loaded in the browser')
  expect((await mock.faults.list())[0]?.fired).toBe(1)
})

test("a fault on the core API shows the browser's error state", async ({ page, mock }) => {
  await mock.faults.add({ area: 'core', method: 'GET', status: 502 })
  await page.goto('/')
  await expect(page.locator('#server-total')).toHaveText('0 people')
  await expect(page.locator('#browser-status')).toHaveText('Could not load people: the core API answered 502')
  await expect(mock).toHaveReceivedRequest({ area: 'core', status: 502 }, { times: 1 })
  await mock.faults.clear()
  await page.reload()
  await expect(page.locator('#browser-status')).toHaveText('0 people loaded in the browser')
})
