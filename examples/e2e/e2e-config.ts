// What both Playwright configs of the example share: one simulator server and the
// app for the whole run, Debian's Chromium, two workers, every test in parallel.
import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test'
import type { MockOptions } from 'multi-area-mock/playwright'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const HERE = fileURLToPath(new URL('.', import.meta.url))

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

// Playwright loads this file again in each worker: the ports the runner picked
// reach the workers through the environment they inherit.
process.env.E2E_MOCK_PORT ??= String(await freePort())
process.env.E2E_APP_PORT ??= String(await freePort())
/** Where the racing tests meet (see tests/race.spec.ts). */
process.env.E2E_RUN_DIR ??= mkdtempSync(join(tmpdir(), 'multi-area-mock-e2e-'))

export const MOCK_URL = `http://127.0.0.1:${process.env.E2E_MOCK_PORT}`
export const APP_URL = `http://127.0.0.1:${process.env.E2E_APP_PORT}`
// Read by the `mock` fixture's default, the app's server and the global teardown.
process.env.MULTI_AREA_MOCK_URL = MOCK_URL

const teamScenario = JSON.parse(readFileSync(join(HERE, 'team-scenario.json'), 'utf8')) as Record<string, unknown>

/** The example's config with the given tests. */
export function e2eConfig(tests: Pick<PlaywrightTestConfig, 'testDir' | 'outputDir'>) {
  return defineConfig<MockOptions>({
    ...tests,
    fullyParallel: true,
    workers: 2,
    retries: 0,
    forbidOnly: Boolean(process.env.CI),
    // Generous for a busy CI machine; a passing run takes a fraction of it.
    timeout: 30_000,
    expect: { timeout: 10_000 },
    reporter: process.env.CI ? 'line' : 'list',
    globalTeardown: join(HERE, 'global-teardown.ts'),
    use: {
      baseURL: APP_URL,
      mockServerUrl: MOCK_URL,
      mockScenario: teamScenario,
      mockClock: '2026-01-01T00:00:00Z',
      browserName: 'chromium',
      headless: true,
      launchOptions: {
        // Debian's Chromium, never a downloaded browser.
        executablePath: '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      },
    },
    webServer: [
      {
        command: `node bin/multi-area-mock.js serve --port ${process.env.E2E_MOCK_PORT} --quiet`,
        url: `${MOCK_URL}/__mock/health`,
        cwd: ROOT,
        reuseExistingServer: false,
        timeout: 30_000,
      },
      {
        // The app is TypeScript: bundled first (its imports stay imports), like examples/browser.
        command: `node_modules/.bin/esbuild examples/e2e/app/server.ts --bundle --platform=node --format=esm --packages=external --log-level=warning --outfile=test-output/e2e/app.js && node test-output/e2e/app.js`,
        url: `${APP_URL}/health`,
        cwd: ROOT,
        env: { PORT: process.env.E2E_APP_PORT!, API_URL: MOCK_URL, MULTI_AREA_MOCK_URL: MOCK_URL },
        reuseExistingServer: false,
        timeout: 30_000,
      },
    ],
  })
}
