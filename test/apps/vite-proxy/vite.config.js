// vite.config.js
import { defineConfig } from 'vite'

// The simulator server: `npx multi-area-mock serve --port 4000`, or the one a test run names.
const simulator = process.env.MULTI_AREA_MOCK_URL ?? 'http://127.0.0.1:4000'

export default defineConfig({
  server: {
    // `vite` (the dev server) passes the areas' requests and the control API's on to it.
    proxy: Object.fromEntries(['/admin', '/core', '/quantum', '/general', '/ledger', '/__mock'].map((prefix) => [prefix, simulator])),
  },
})
