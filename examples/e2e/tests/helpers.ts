import type { Page } from '@playwright/test'
import { expect } from 'multi-area-mock/playwright'

/** Adds a person through the page's form: the app's server creates them in the test's world. */
export async function addPerson(page: Page, username: string, email = `${username}@example.com`): Promise<void> {
  const form = page.locator('#add-person')
  await form.getByLabel('Username').fill(username)
  await form.getByLabel('Email').fill(email)
  await form.getByLabel('Password').fill('long-enough')
  await form.getByRole('button', { name: 'Add' }).click()
  await expect(page.locator('#server-users li', { hasText: `${username} (` })).toBeVisible()
}

/** The usernames the server rendered, in order. */
export async function serverNames(page: Page): Promise<string[]> {
  return page.locator('#server-users li').evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.username!))
}

/** The usernames the browser loaded itself, once it has loaded them. */
export async function browserNames(page: Page): Promise<string[]> {
  await expect(page.locator('#browser-status')).toContainText('loaded in the browser')
  return page.locator('#browser-users li').evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.username!))
}
