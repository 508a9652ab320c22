// @ts-check
// In-process CPU per request of the msw dispatch path (no sockets), beside the fast path and msw's own getResponse.
//
// A Node request (a stand-in for IncomingMessage) through the `msw` and `fast` dispatch
// modes, and a Fetch `Request` through msw's `getResponse` over `sim.handlers`
// (what a test suite pays per request under `setupServer`, minus interception).
// CPU time (process.cpuUsage) over many requests, median of rounds, warm-up first.
// Standalone: `node bench/msw-path.js` (after `npm run build`).

import { PassThrough } from 'node:stream'
import { pathToFileURL } from 'node:url'
import { getResponse } from 'msw'
import { log, targetLines } from './lib/format.js'
import { median } from './lib/median.js'
import { LIST_PATH } from './scenarios.js'
import { setting } from './switches.js'

// MSW_PATH_DIST: another build's dist/src/ (an A/B against an older build).
const other = setting('MSW_PATH_DIST')
const dist = other ? pathToFileURL(`${other.replace(/\/$/, '')}/`) : new URL('../dist/src/', import.meta.url)
const { createSimulator } = await import(new URL('index.js', dist).href)
const { nodeAnswerer } = await import(new URL('node/fast-path.js', dist).href)

const ORIGIN = 'http://127.0.0.1:4000'
const HEADERS = { host: '127.0.0.1:4000', 'user-agent': 'wrk', accept: '*/*' }
const REQUESTS = setting('MSW_PATH_REQUESTS')
const ROUNDS = setting('MSW_PATH_ROUNDS')

/**
 * A stand-in for Node's IncomingMessage: method, url, headers and (for a POST) a body stream.
 *
 * @param {string} method
 * @param {string} path
 * @param {string} [body]
 */
function nodeRequest(method, path, body) {
  const req = new PassThrough()
  Object.assign(req, {
    method,
    url: path,
    headers: body === undefined ? { ...HEADERS } : { ...HEADERS, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
  })
  if (body === undefined) req.end()
  else req.end(body)
  return req
}

/**
 * CPU µs per call of `one(i)` over `count` calls, run in sequence.
 *
 * @param {(i: number) => Promise<unknown>} one
 * @param {number} count
 */
async function cpuPer(one, count) {
  const start = process.cpuUsage()
  for (let i = 0; i < count; i++) await one(i)
  const used = process.cpuUsage(start)
  return (used.user + used.system) / count
}

/**
 * Indicative rows: CPU per request of each way in-process, for the three headline requests.
 *
 * @returns {Promise<import('./lib/format.js').TargetRow[]>}
 */
export async function mswPathRows() {
  const sim = createSimulator({})
  await sim.ready
  const msw = nodeAnswerer('msw', sim, ORIGIN)
  const fast = nodeAnswerer('fast', sim, ORIGIN)
  const listed = await getResponse(sim.handlers, new Request(`${ORIGIN}${LIST_PATH}`))
  if (!listed) throw new Error(`GET ${LIST_PATH}: no handler answered`)
  const list = JSON.parse(await listed.text())
  const onePath = `${LIST_PATH}/${list[0].id}`
  let serial = 0
  /** @typedef {{ method: string, path: string, body?: () => string }} Case */
  /** @type {Record<string, Case>} */
  const cases = {
    'GET list of 20': { method: 'GET', path: LIST_PATH },
    'GET one user': { method: 'GET', path: onePath },
    'POST create': {
      method: 'POST',
      path: LIST_PATH,
      body: () => JSON.stringify({ username: `mswpath${++serial}`, email: `mswpath${serial}@example.com`, password: 'Passw0rd!' }),
    },
  }
  /** @type {Record<string, (c: Case) => Promise<void>>} */
  const ways = {
    'msw (wire)': async (c) => {
      const reply = await msw(nodeRequest(c.method, c.path, c.body?.()))
      if (reply.status >= 300) throw new Error(`${c.method} ${c.path}: ${reply.status}`)
    },
    'fast (wire)': async (c) => {
      const reply = await fast(nodeRequest(c.method, c.path, c.body?.()))
      if (reply.status >= 300) throw new Error(`${c.method} ${c.path}: ${reply.status}`)
    },
    'getResponse + text()': async (c) => {
      const init = c.body ? { method: c.method, headers: { 'content-type': 'application/json' }, body: c.body() } : { method: c.method }
      const response = await getResponse(sim.handlers, new Request(`${ORIGIN}${c.path}`, init))
      if (!response) throw new Error(`${c.method} ${c.path}: no handler answered`)
      await response.text()
      if (response.status >= 300) throw new Error(`${c.method} ${c.path}: ${response.status}`)
    },
  }
  const rows = []
  for (const [name, c] of Object.entries(cases)) {
    /** @type {Record<string, number[]>} */
    const results = Object.fromEntries(Object.keys(ways).map((way) => [way, []]))
    for (const way of Object.keys(ways)) await cpuPer(() => ways[way](c), Math.min(REQUESTS, 5_000))
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved, so load from elsewhere falls on every way alike.
      for (const [way, run] of Object.entries(ways)) results[way].push(await cpuPer(() => run(c), REQUESTS))
      if (c.method === 'POST') await sim.reset()
    }
    // Indicative rows: the target (msw reads ≥ 0.45× bare node:http) is judged by wrk, not here.
    for (const way of Object.keys(ways))
      rows.push({
        target: `in-process CPU per request, ${way}: ${name}`,
        limit: 'indicative',
        measured: `${median(results[way]).toFixed(1)} µs (median of ${ROUNDS} × ${REQUESTS})`,
        met: null,
      })
  }
  return rows
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of targetLines(await mswPathRows())) log(line)
}
