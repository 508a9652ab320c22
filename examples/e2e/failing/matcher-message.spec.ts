// Fails on purpose, in a run of its own (playwright.failing.config.ts), to show
// the message of toHaveReceivedRequest; test/e2e-example.test.ts checks it.
import { expect, test } from 'multi-area-mock/playwright'

test('fails on purpose: no POST for grace was ever sent', async ({ page, mock }) => {
  await page.goto('/')
  const form = page.locator('#add-person')
  await form.getByLabel('Username').fill('ada')
  await form.getByLabel('Email').fill('ada@example.com')
  await form.getByLabel('Password').fill('long-enough')
  await form.getByRole('button', { name: 'Add' }).click()
  await expect(page.locator('#server-users li[data-username="ada"]')).toBeVisible()
  await expect(mock).toHaveReceivedRequest({ method: 'POST', path: '/admin/api/v1.2/users', body: { username: 'grace' } }, { timeout: 1000 })
})
