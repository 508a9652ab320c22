/**
 * Preloaded into `next dev` by test/app-next.test.ts (`--import`): its dev
 * server asks the npm registry for Next's latest version when a page first
 * loads. Tests reach no host but 127.0.0.1, so that fetch fails here at once,
 * as it would offline (Next then shows no version notice).
 */
const original = globalThis.fetch
globalThis.fetch = (input, init) => {
  const url = String(input instanceof Request ? input.url : input)
  return url.startsWith('https://registry.npmjs.org/') ? Promise.reject(new TypeError('fetch failed: tests stay on 127.0.0.1')) : original(input, init)
}
