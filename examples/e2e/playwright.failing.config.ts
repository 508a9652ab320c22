// A separate run whose one test fails on purpose, to show toHaveReceivedRequest's
// message: `npx playwright test -c examples/e2e/playwright.failing.config.ts`.
// test/e2e-example.test.ts runs it and checks the message.
import { e2eConfig } from './e2e-config.js'

export default e2eConfig({ testDir: './failing', outputDir: '../../test-output/e2e/failing-results' })
