import { expect, test } from 'multi-area-mock/playwright'

test("toHaveReceivedRequest waits for the page's requests, counts them, and explains a miss", async ({ page, mock }) => {
  await page.goto('/')
  // The page loads people in the browser after it is shown: the matcher waits for that request.
  await expect(mock).toHaveReceivedRequest({ method: 'GET', path: '/core/users', status: 200 }, { times: 1 })
  await expect(mock).not.toHaveReceivedRequest({ method: 'DELETE' })
  const miss = await expect(mock)
    .toHaveReceivedRequest({ method: 'GET', path: '/core/users', query: { limit: '5' } }, { timeout: 200 })
    .then(
      () => undefined,
      (error: Error) => error.message,
    )
  expect(miss).toContain('Expected: GET /core/users (query {"limit":"5"}), at least once')
  expect(miss).toMatch(/query\.limit +- "5"\n +\+ "100"/)
})
