/**
 * Playwright entry of multi-area-mock: `test` with a world per test on a
 * simulator server, and `expect` with `toHaveReceivedRequest`.
 *
 * @example
 * import { test, expect } from 'multi-area-mock/playwright'
 * test('an admin approves a pending user', async ({ page, mock }) => {
 *   await page.goto('/users')
 *   await expect(mock).toHaveReceivedRequest({ method: 'PUT', path: '/admin/api/v1.2/users/*' }, { times: 1 })
 * })
 */
import { expect as base } from '@playwright/test'
import { toHaveReceivedRequest } from './matcher.js'

export { type MockFixtures, type MockOptions, test } from './mock-fixture.js'
export type { AttachWorldMode } from './attach-world.js'
export type { WorldBundle } from '../simulator/history/world-bundle.js'
export { type ClockView, createMockWorld, type CreateMockWorldOptions, MockWorld, type MockServerOptions } from '../testing/mock-world.js'
export { MOCK_URL_ENV, MockServerError } from '../testing/mock-server.js'
export type { MatchOptions, RequestMatch } from '../testing/request-match.js'

/** Playwright's `expect`, plus `expect(mock).toHaveReceivedRequest(match, { times?, timeout? })`. */
export const expect = base.extend({ toHaveReceivedRequest })
