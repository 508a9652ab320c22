import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DISPATCH_MODES } from './fast-path.js'
import { type RunningServer, startServer } from './server.js'

/** One raw HTTP/1.1 exchange on its own connection: the answer's bytes, up to the server closing. */
function exchange(port: number, head: string, body = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')))
    const length = body === '' ? '' : `content-length: ${Buffer.byteLength(body)}\r\n`
    // Not `end()`: a half-closed connection may be dropped before the answer.
    socket.write(`${head}\r\nhost: sim.test\r\nconnection: close\r\n${length}\r\n${body}`)
  })
}

/** The answer without the one line that must differ (the date). */
const withoutDate = (raw: string) => raw.replace(/\r\ndate: [^\r]*/i, '')

/**
 * The three ways the CLI server reaches the routes (src/node/server/fast-path.ts)
 * must put the same bytes on the wire: status line with its reason phrase,
 * headers and their order, body; CORS, faults, worlds and errors included.
 */
describe('--dispatch fast and msw on the wire', () => {
  const servers = new Map<string, RunningServer>()
  beforeAll(async () => {
    for (const mode of DISPATCH_MODES)
      servers.set(mode, await startServer({ port: 0, seed: 4, clock: '2026-01-01T00:00:00Z', dispatch: mode, allowedHosts: ['sim.test'], corsOrigins: ['http://app.test'] }))
  })
  afterAll(async () => {
    for (const server of servers.values()) await server.close()
  })

  const json = 'content-type: application/json'
  const user = JSON.stringify({ username: 'wire.user', email: 'wire.user@example.com', password: 'long-enough' })
  const requests: Array<[string, string?]> = [
    ['GET /admin/api/v1.2/users?page=2&limit=5&status=active HTTP/1.1'],
    ['GET /admin/api/v1.2/users?limit=0 HTTP/1.1'],
    [`POST /admin/api/v1.2/users HTTP/1.1\r\n${json}`, user],
    [`POST /admin/api/v1.2/users HTTP/1.1\r\n${json}`, user],
    [`POST /admin/api/v1.2/users HTTP/1.1\r\n${json}`, '{"username":1}'],
    [`POST /admin/api/v1.2/users HTTP/1.1\r\ncontent-type: text/plain`, '{}'],
    [`POST /admin/api/v1.2/users HTTP/1.1\r\n${json}`, '{"a":'],
    [`POST /admin/api/v1.2/users HTTP/1.1\r\n${json}`, ''],
    [`POST /core/users HTTP/1.1\r\n${json}`, 'x'.repeat(1024 * 1024 + 1)],
    [`POST /core/users HTTP/1.1\r\n${json}`, '\uFEFF{"name":"Bom Body","email":"bom@example.com","password":"long-enough"}'],
    ['PATCH /admin/api/v1.2/users HTTP/1.1'],
    ['GET /admin/api/v1.2/users/unknown-id HTTP/1.1'],
    ['GET /admin/api/v1.2/usrs HTTP/1.1'],
    ['GET /nowhere/at/all HTTP/1.1'],
    ['GET /core/users?limit=3&offset=2 HTTP/1.1\r\norigin: http://app.test'],
    ['HEAD /core/products/prod-1001 HTTP/1.1'],
    ['OPTIONS /core/users HTTP/1.1\r\norigin: http://app.test\r\naccess-control-request-headers: content-type'],
    [`PUT /core/products/prod-1001 HTTP/1.1\r\n${json}`, '{"price":10.5}'],
    ['GET /core/products/prod-1001 HTTP/1.1\r\nprefer: code=503'],
    ['GET /core/products/prod-1001 HTTP/1.1\r\nprefer: code=429'],
    ['GET /core/users HTTP/1.1\r\nx-mock-world: nope'],
    ['GET /core/users HTTP/1.1\r\ncookie: a=1; mock-world=nope'],
    ['GET /general/data/1?fields=id HTTP/1.1'],
    [`PUT /general/resources/1 HTTP/1.1\r\nauthorization: Bearer nope\r\n${json}`, '{"data":{}}'],
    [`POST /ledger/v1/stake/delegate HTTP/1.1\r\n${json}`, '{"delegator":"x"}'],
    ['GET /ledger/v1/status HTTP/1.1'],
    [`POST /quantum/v1/entangle HTTP/1.1\r\n${json}`, '{"count":2}'],
    ['GET /quantum/v1/status HTTP/1.1'],
    ['GET /__mock/health HTTP/1.1'],
    ['GET /__mock/state HTTP/1.1'],
    ['GET /__mock/openapi.json?area=ledger HTTP/1.1'],
    ['POST /__mock/scenarios/nope HTTP/1.1'],
    ['GET /__mock/docs HTTP/1.1'],
    ['GET /core/%E0%A4%A HTTP/1.1'],
    [`POST /__mock/faults HTTP/1.1\r\n${json}`, '{"method":"GET","route":"/core/products/prod-1002","drop":true,"times":1}'],
    ['GET /core/products/prod-1002 HTTP/1.1'],
    ['GET /core/products/prod-1002 HTTP/1.1'],
  ]

  it('answer every request with the same bytes, in order', async () => {
    const seen: string[] = []
    for (const [head, body] of requests) {
      const answers = new Map<string, string>()
      for (const [mode, server] of servers) answers.set(mode, withoutDate(await exchange(server.port, head, body)))
      const fast = answers.get('fast')!
      seen.push(fast.slice(0, fast.indexOf('\r\n')))
      for (const [mode, raw] of answers) expect(raw, `${mode}: ${head}`).toBe(fast)
      // Every status line carries its standard reason phrase.
      if (fast !== '') expect(fast, head).toMatch(/^HTTP\/1\.1 \d{3} [A-Z][A-Za-z' -]+\r\n/)
    }
    // The list reaches what it is meant to: successes, each kind of error, a dropped connection.
    expect(seen).toEqual(
      expect.arrayContaining([
        'HTTP/1.1 201 Created',
        'HTTP/1.1 409 Conflict',
        'HTTP/1.1 413 Payload Too Large',
        'HTTP/1.1 415 Unsupported Media Type',
        'HTTP/1.1 405 Method Not Allowed',
        'HTTP/1.1 204 No Content',
        'HTTP/1.1 503 Service Unavailable',
        'HTTP/1.1 401 Unauthorized',
        '',
      ]),
    )
  })
})
