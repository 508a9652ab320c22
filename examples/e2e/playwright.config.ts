// The example's suite: `npx playwright test -c examples/e2e/playwright.config.ts`
// (after `npm run build`). Every test passes.
import { e2eConfig } from './e2e-config.js'

export default e2eConfig({ testDir: './tests', outputDir: '../../test-output/e2e/results' })
