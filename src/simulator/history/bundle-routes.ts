import { streamedJson } from '../../kernel/http/json/json-stream.js'
import { defineRoute } from '../../kernel/routing/route.js'
import { BUNDLE_DEPTH, type BundleSource, takeBundle } from './bundle-take.js'
import { worldBundleSchema } from './world-bundle.js'

/**
 * The control API of world bundles (issue 35): a world, as everything that
 * rebuilds it anywhere. Its return type is inferred, not declared: the
 * operation types are read from it.
 */
export function bundleRoutes({ sim }: { sim: BundleSource }) {
  return [
    defineRoute({
      method: 'GET',
      path: '/bundle',
      operationId: 'getBundle',
      summary: 'The world as a bundle: everything that rebuilds it',
      description:
        'The options that shape answers, the world before its first kept command (password hashes included), every command applied to it since in order (passwords sealed: never in clear), its request journal (secrets redacted) and the digest of its state now. `multi-area-mock serve --replay <bundle.json>` rebuilds the world from it, byte for byte; the Playwright fixture attaches it to a failing test as `mock-world`. With `x-mock-world`, the bundle of that world. See docs/forensics.md.',
      // No example: a bundle holds the instants its commands arrived at, which no frozen clock fixes.
      responses: { 200: { body: worldBundleSchema } },
      // Streamed as GET /__mock/state is: a large world's bundle is never held as one text.
      async handle() {
        return streamedJson(await takeBundle(sim), BUNDLE_DEPTH)
      },
    }),
  ]
}
