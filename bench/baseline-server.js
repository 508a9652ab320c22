// @ts-check
// The bare node:http baseline: answers the benchmarked requests with the simulator's captured bytes and does nothing else. Not part of the package.
//
// Answers the benchmarked requests with bodies and headers captured from
// the real simulator before the load starts (so payload sizes match), and does
// nothing else: no routing library, no Fetch Request/Response objects, no msw,
// no validation. It is started by bench/run.js as a child process, exactly like
// the simulator (bench/lib/servers.js), so neither server shares an event loop with the load generator (wrk).
//
// Fixtures arrive as JSON in the BENCH_BASELINE_FIXTURES environment variable:
//   { list: Fixture, detail: Fixture, create: Fixture, detailPrefix: string, listPath: string,
//     routes: Array<{ method: string, path: string, fixture: Fixture }> }   (more exact-path answers)
//   Fixture = { status: number, headers: Record<string, string>, body: string }
// BENCH_BASELINE_BATCH=1 ends answers at the end of each event-loop turn (see send()).
// Prints `baseline listening on http://127.0.0.1:PORT` once it listens.

import { createServer } from 'node:http'
import { setting } from './switches.js'

const fixtures = JSON.parse(setting('BENCH_BASELINE_FIXTURES') ?? 'null')
if (!fixtures) {
  process.stderr.write('baseline-server: BENCH_BASELINE_FIXTURES is not set\n')
  process.exit(2)
}

/**
 * @typedef {{ status: number, headers: Record<string, string>, body: string }} Fixture
 * @typedef {{ status: number, headers: Record<string, string | number>, body: Buffer }} Answer
 */

/**
 * Pre-built answers: the body is encoded once, headers (with Content-Length) are one object.
 *
 * @param {Fixture} fixture
 * @returns {Answer}
 */
function prepare(fixture) {
  const body = Buffer.from(fixture.body, 'utf8')
  return { status: fixture.status, headers: { ...fixture.headers, 'content-length': body.length }, body }
}

const list = prepare(fixtures.list)
const detail = prepare(fixtures.detail)
const create = prepare(fixtures.create)
/** `METHOD path` → answer, for the exact-path routes. */
const routes = new Map(
  (fixtures.routes ?? []).map((/** @type {{ method: string, path: string, fixture: Fixture }} */ route) => [`${route.method} ${route.path}`, prepare(route.fixture)]),
)
const notFound = prepare({ status: 404, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"error":"not_found"}' })

/**
 * BENCH_BASELINE_BATCH=1: end the answers of each event-loop turn together at the
 * turn's end, as the simulator's server does (src/node/server/end-batch.ts), so the bench
 * can show how much of a ratio is that write pattern rather than less work.
 */
const BATCH = setting('BENCH_BASELINE_BATCH')
/** BENCH_BASELINE_PARSE=1: parse each body as JSON, the least a server that reads one must do. */
const PARSE = setting('BENCH_BASELINE_PARSE')
/**
 * Responses and bodies waiting for the end of the turn (BATCH only), in pairs.
 *
 * @type {Array<any>}
 */
let pending = []
function flush() {
  const ending = pending
  pending = []
  for (let index = 0; index < ending.length; index += 2) ending[index].end(ending[index + 1])
}

// The simulator writes every answer whole with a Content-Length (src/node/server/wire-reply.ts):
// the same framing here, so the bytes on the wire match.
/**
 * @param {import('node:http').ServerResponse} res
 * @param {Answer} answer
 */
function send(res, answer) {
  res.writeHead(answer.status, answer.headers)
  if (!BATCH) return void res.end(answer.body)
  if (pending.push(res, answer.body) === 2) setImmediate(flush)
}

const server = createServer((req, res) => {
  const url = req.url ?? '/'
  const query = url.indexOf('?')
  const path = query === -1 ? url : url.slice(0, query)
  if (req.method === 'GET' && path === fixtures.listPath) return send(res, list)
  if (req.method === 'GET' && path.startsWith(fixtures.detailPrefix)) return send(res, detail)
  const answer = req.method === 'POST' && path === fixtures.listPath ? create : routes.get(`${req.method} ${path}`)
  if (answer) {
    // Read the whole upload (if any) before answering, as the simulator must; with PARSE, parsed as JSON too.
    if (!PARSE) {
      req.on('data', () => {})
      req.on('end', () => send(res, answer))
      return
    }
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => (text += chunk))
    req.on('end', () => {
      JSON.parse(text)
      send(res, answer)
    })
    return
  }
  req.resume()
  send(res, notFound)
})
server.keepAliveTimeout = 65_000

server.listen(0, '127.0.0.1', () => {
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
  process.stdout.write(`baseline listening on http://127.0.0.1:${port}\n`)
})

const stop = () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
