// next.config.mjs
// Set under test only: the simulator server (`npx multi-area-mock serve --port 4000`).
const simulator = process.env.MULTI_AREA_MOCK_URL

/** @type {import('next').NextConfig} */
export default {
  // Loaded by Node.js if instrumentation.js asks for it, never bundled into the server's code.
  serverExternalPackages: ['multi-area-mock'],
  async rewrites() {
    if (!simulator) return []
    // The browser's requests to the areas and the control API go on to the simulator, cookies included.
    return ['admin', 'core', 'quantum', 'general', 'ledger', '__mock'].map((prefix) => ({ source: `/${prefix}/:path*`, destination: `${simulator}/${prefix}/:path*` }))
  },
}
