import { expect, test } from 'multi-area-mock/playwright'
import { addPerson } from './helpers.js'

test('a sign-in token expires when the clock moves two hours on', async ({ page, mock }) => {
  await page.goto('/')
  await addPerson(page, 'ada')
  const notes = page.getByRole('region', { name: 'Team notes' })
  await notes.getByLabel('Sign-in name').fill('ada')
  await notes.getByLabel('Sign-in password').fill('long-enough')
  await notes.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.locator('#session')).toHaveText('Signed in as ada')

  await notes.getByLabel('Note').fill('Stand-up at ten.')
  await notes.getByRole('button', { name: 'Save note' }).click()
  await expect(page.locator('#note-status')).toHaveText('Saved')

  // Area D tokens live an hour (3600 s) on the world's clock.
  expect((await mock.clock.advance('2h')).now).toBe('2026-01-01T02:00:00.000Z')
  await notes.getByRole('button', { name: 'Save note' }).click()
  await expect(page.locator('#note-status')).toHaveText('Your session expired: sign in again.')
  await expect(page.locator('#session')).toHaveText('Not signed in')
  await expect(mock).toHaveReceivedRequest({ method: 'PUT', path: '/general/resources/{id}', status: 401 }, { times: 1 })
  const [saved] = await mock.journal.find({ method: 'PUT', status: 200 })
  expect(saved?.requestBody).toEqual({ data: { title: 'Team notes', text: 'Stand-up at ten.' } })
})
