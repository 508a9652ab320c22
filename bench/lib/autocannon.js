// @ts-check
// The fallback load generator when wrk is missing: autocannon in the bench process, which on 2 cores caps the bare baseline at about half its rate.

// @ts-expect-error -- autocannon ships no type declarations (any is what it is used as)
import autocannon from 'autocannon'

/**
 * One autocannon run; `next` makes each request's body (counter-made or pre-signed), as wrk's script would.
 *
 * @param {string} url
 * @param {import('./wrk.js').HttpRequest} request
 * @param {(() => string) | undefined} next
 * @param {number} seconds
 * @param {number} connections
 * @returns {Promise<import('./wrk.js').LoadFigures>}
 */
export function runAutocannon(url, request, next, seconds, connections) {
  /** @type {Record<string, unknown>} */
  const options = { ...request, headers: request.headers ? { ...request.headers } : undefined }
  if (next) {
    options.setupRequest = (/** @type {{ body?: string }} */ req) => {
      req.body = next()
      return req
    }
  }
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, requests: [options], timeout: 10 }, (/** @type {Error | null} */ error, /** @type {any} */ result) => {
      if (error) return reject(error)
      const ok = Object.entries(result.statusCodeStats ?? {}).reduce((sum, [status, { count }]) => sum + (Number(status) < 300 ? Number(count) : 0), 0)
      resolve({
        rps: result.requests.average,
        total: result.requests.total,
        ok,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max,
      })
    })
  })
}
