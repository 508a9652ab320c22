import * as z from 'zod'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../errors/api-error.js'
import { errorResponse } from '../errors/error-response.js'
import { fromFetchRequest } from '../http/fetch-adapter.js'
import { json } from '../http/json/json-response.js'
import type { Reply } from '../http/reply.js'
import { defineRoute, jsonBody, rawJsonBody, type RouteDefinition } from './route.js'
import { runRoute } from './run-route.js'

const items = new Map([['a', { size: 1 }]])
const needsToken = {
  scheme: 'bearer' as const,
  verify(request: { headers: { get(name: string): string | null } }) {
    if (request.headers.get('authorization') !== 'Bearer t') throw new ApiError(401, 'unauthorized', 'Send a token.')
  },
}
const update = defineRoute({
  method: 'PUT',
  path: '/items/{id}',
  summary: 'Update an item',
  security: needsToken,
  params: z.object({ id: z.string().regex(/^[a-z]$/, 'must be one letter') }),
  query: z.object({ dry: z.enum(['yes', 'no']).optional() }),
  guard({ params }) {
    if (!items.has(params.id)) throw new ApiError(404, 'not_found', `No item "${params.id}".`)
  },
  body: z.object({ size: z.int().min(0) }),
  handle: ({ params, query, body }) => json({ id: params.id, dry: query.dry ?? 'no', size: body.size }),
})

/** Runs `route` on a request the way the simulator does: errors become their JSON answer. */
async function run(route: RouteDefinition, url: string, init: RequestInit, params: Record<string, string>, bodyLimit = 1024): Promise<{ status: number; body: unknown }> {
  let reply: Reply
  try {
    reply = await runRoute(route, fromFetchRequest(new Request(url, init)), new URL(url), params, bodyLimit)
  } catch (error) {
    reply = errorResponse(error)
  }
  return { status: reply.status, body: reply.body ? JSON.parse(reply.body) : undefined }
}

const put = (body: string, headers: Record<string, string> = { authorization: 'Bearer t', 'content-type': 'application/json' }) => ({ method: 'PUT', body, headers })

describe('runRoute', () => {
  it('gives handle the validated params, query and body', async () => {
    expect(await run(update, 'http://x/items/a?dry=yes', put('{"size":3}'), { id: 'a' })).toEqual({ status: 200, body: { id: 'a', dry: 'yes', size: 3 } })
  })

  it('checks in order: security, params, query, guard, then the body', async () => {
    const bad = put('{"size":-1}', { 'content-type': 'text/plain' })
    expect((await run(update, 'http://x/items/AB?dry=maybe', bad, { id: 'AB' })).status).toBe(401)
    const authorized = put('{"size":-1}', { authorization: 'Bearer t', 'content-type': 'text/plain' })
    expect(await run(update, 'http://x/items/AB?dry=maybe', authorized, { id: 'AB' })).toMatchObject({ status: 400, body: { details: [{ path: 'id' }] } })
    expect(await run(update, 'http://x/items/z?dry=maybe', authorized, { id: 'z' })).toMatchObject({ status: 400, body: { details: [{ path: 'query.dry' }] } })
    expect(await run(update, 'http://x/items/z', authorized, { id: 'z' })).toMatchObject({ status: 404, body: { error: 'not_found' } })
    expect(await run(update, 'http://x/items/a', authorized, { id: 'a' })).toMatchObject({ status: 415 })
    expect(await run(update, 'http://x/items/a', put('{"size":-1}'), { id: 'a' })).toMatchObject({ status: 400, body: { details: [{ path: 'size' }] } })
  })

  it('reads a body with its own limit and parser, or raw for the handler to check', async () => {
    const limited = defineRoute({
      method: 'POST',
      path: '/x',
      summary: 'x',
      body: jsonBody(z.object({ n: z.string() }), { limit: 8, parse: () => ({ n: 'parsed' }) }),
      handle: ({ body }) => json(body),
    })
    expect(await run(limited, 'http://x/x', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' }, {})).toEqual({
      status: 200,
      body: { n: 'parsed' },
    })
    expect((await run(limited, 'http://x/x', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":"123456789"}' }, {})).status).toBe(413)
    const raw = defineRoute({ method: 'POST', path: '/x', summary: 'x', body: rawJsonBody(z.array(z.int())), handle: ({ body }) => json({ kept: body }) })
    expect(await run(raw, 'http://x/x', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '["not", "checked"]' }, {})).toEqual({
      status: 200,
      body: { kept: ['not', 'checked'] },
    })
    expect((await run(raw, 'http://x/x', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[1,2]' }, {}, 4)).status).toBe(413)
  })
})
