import { test as base } from '@playwright/test'
import type { ScenarioInput } from '../simulator/state/scenario-schema.js'
import { createMockWorld, type MockWorld } from '../testing/mock-world.js'
import { MOCK_URL_ENV } from '../testing/mock-server.js'
import { type AttachWorldMode, attachWorld } from './attach-world.js'
import { routeIntoWorld } from './route-into-world.js'

/** The server's control token, when it was started with `--control-token` (the CLI reads the same variable). */
const CONTROL_TOKEN_ENV = 'MULTI_AREA_MOCK_CONTROL_TOKEN'

/** Options of the `mock` fixture: in `playwright.config.ts` under `use`, or per file with `test.use()`. */
export interface MockOptions {
  /** The simulator server, e.g. `http://127.0.0.1:4000`; default: the `MULTI_AREA_MOCK_URL` environment variable. */
  mockServerUrl: string | undefined
  /** The world's scenario: a name the server knows or a scenario object; default: the server's. */
  mockScenario: string | ScenarioInput | undefined
  /** The world's seed; default: the scenario's, else the server's. */
  mockSeed: number | undefined
  /** A frozen ISO instant for the world's clock, or `'system'`; default: the server's clock setting. */
  mockClock: string | undefined
  /** The server's `--control-token`; default: the `MULTI_AREA_MOCK_CONTROL_TOKEN` environment variable. */
  mockControlToken: string | undefined
  /**
   * Other origins the app calls the simulated APIs at (e.g. `https://api.example.com`):
   * the page's requests there are answered by the simulator server, same path, in the test's world; default none.
   */
  mockOrigins: string[] | undefined
  /**
   * When the test's world goes into the report as a `mock-world` attachment
   * (its bundle: `serve --replay` rebuilds it): `'on-failure'` (default) when
   * the test did not end as expected, `'always'`, or `'never'`.
   */
  mockAttachWorld: AttachWorldMode | undefined
}

/** The test-scoped fixtures. */
export interface MockFixtures {
  /** This test's world on the simulator server; deleted when the test ends, pass or fail (after its bundle is attached to a failed test). */
  mock: MockWorld
}

/**
 * Playwright's `test` with a `mock` fixture: a world of its own on the simulator
 * server for each test, every request of the page to the server sent into it.
 *
 * @example
 * test.use({ mockScenario: 'empty', mockClock: '2026-01-01T00:00:00Z' })
 * test('lists nobody', async ({ page, mock }) => {
 *   await page.goto('/users')
 *   await expect(mock).toHaveReceivedRequest({ method: 'GET', path: '/admin/api/v1.2/users' })
 * })
 */
export const test = base.extend<MockOptions & MockFixtures>({
  mockServerUrl: [undefined, { option: true }],
  mockScenario: [undefined, { option: true }],
  mockSeed: [undefined, { option: true }],
  mockClock: [undefined, { option: true }],
  mockControlToken: [undefined, { option: true }],
  mockOrigins: [[], { option: true }],
  mockAttachWorld: ['on-failure', { option: true }],
  // Automatic: a test that never names `mock` still gets a world of its own, so its page never writes to a world other tests share.
  mock: [
    async ({ context, baseURL, mockServerUrl, mockScenario, mockSeed, mockClock, mockControlToken, mockOrigins, mockAttachWorld }, use, testInfo) => {
      const controlToken = mockControlToken ?? process.env[CONTROL_TOKEN_ENV]
      const world = await createMockWorld(mockServerUrl ?? process.env[MOCK_URL_ENV] ?? '', {
        ...(mockScenario === undefined ? {} : { scenario: mockScenario }),
        ...(mockSeed === undefined ? {} : { seed: mockSeed }),
        ...(mockClock === undefined ? {} : { clock: mockClock }),
        ...(controlToken ? { controlToken } : {}),
      })
      try {
        await routeIntoWorld(context, world, { baseURL, origins: mockOrigins ?? [] })
        await use(world)
        // The world as the test left it, before it is deleted below.
        await attachWorld(world, testInfo, mockAttachWorld ?? 'on-failure')
      } finally {
        // Runs after a failure or a timeout too; a world already gone (expired) is fine.
        await world.delete()
      }
    },
    { auto: true },
  ],
})
