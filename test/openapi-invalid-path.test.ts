/**
 * The HTTP server refuses a path with a backslash before any route: a path
 * parameter holding `%5C` is 400 `invalid_path` (src/node/gate/request-gate.ts).
 * The OpenAPI document says so on every operation with a path parameter, and
 * the real CLI server's answer matches that operation's documented 400: its
 * schema (ajv, test/support/openapi-check.ts) and the example it shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../src/index.js'
import { type CliServer, startCli } from './support/cli-server.js'
import { OpenApiCheck } from './support/openapi-check.js'

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const

let server: CliServer
let served: any
let check: OpenApiCheck
beforeAll(async () => {
  server = await startCli(['--seed', '1', '--clock', '2026-01-01T00:00:00Z', '--quiet'])
  served = await (await fetch(`${server.url}/__mock/openapi.json`)).json()
  check = new OpenApiCheck(served)
})
afterAll(async () => {
  await server?.stop()
})

/** A response of the served document, its `$ref` followed. */
function resolved(response: any): any {
  return response?.$ref ? served.components.responses[response.$ref.split('/').pop()] : response
}

describe('a path parameter holding a backslash (%5C)', async () => {
  // The operations, from the same document in-process (the tests are named before the server starts).
  const doc = (await createSimulator().openapi()) as any
  const operations = Object.entries<any>(doc.paths)
    .filter(([path]) => path.includes('{'))
    .flatMap(([path, item]) => METHODS.filter((method) => item[method]).map((method) => ({ path, method, id: item[method].operationId as string })))

  it('is a case of the operations with a path parameter, every area and the control API', () => {
    expect(new Set(operations.map(({ id }) => id.match(/^[a-z]+/)![0]))).toEqual(new Set(['admin', 'core', 'quantum', 'general', 'ledger', 'control']))
  })

  for (const { path, method, id } of operations) {
    it(`${method.toUpperCase()} ${path} (${id}): 400 invalid_path, as its documented 400 says`, async () => {
      const response = resolved(served.paths[path][method].responses['400'])
      expect(response, `${id} documents a 400`).toBeDefined()
      expect(response.description).toContain('`invalid_path`')

      const url = `${server.url}${path.replace(/\{[^}]+\}/g, '%5C')}`
      // A body the operation could take, so that nothing but the path is wrong.
      const init: RequestInit = method === 'get' || method === 'delete' ? {} : { body: '{}', headers: { 'content-type': 'application/json' } }
      const answer = await fetch(url, { method: method.toUpperCase(), ...init })
      const text = await answer.text()
      const body = JSON.parse(text)
      expect(answer.status).toBe(400)
      expect(body.error).toBe('invalid_path')
      expect(check.problem(method.toUpperCase(), url, { status: answer.status, headers: answer.headers, body, text })).toBeUndefined()
      // Where the document shows the answer, it is this one.
      const shown = Object.values<any>(response.content['application/json'].examples ?? {}).filter((example) => example.value.error === 'invalid_path')
      for (const example of shown) expect(example.value).toEqual(body)
    })
  }

  it('is shown as an example where an operation has no 400 example of its own', () => {
    const shown = operations.filter(({ path, method }) =>
      Object.values<any>(resolved(served.paths[path][method].responses['400'])?.content['application/json'].examples ?? {}).some(
        (example) => example.value.error === 'invalid_path',
      ),
    )
    expect(shown.length).toBeGreaterThan(0)
  })
})
