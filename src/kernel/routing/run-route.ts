import { readJsonBody, refuseNonJson } from '../http/json-body.js'
import { parseQuery } from '../http/query.js'
import type { RequestHold } from '../http/request-hold.js'
import type { Reply } from '../http/reply.js'
import type { SimRequest } from '../http/sim-request.js'
import { parseOrThrow } from '../http/validate.js'
import { type BodySpec, bodySpec, type RouteDefinition } from './route.js'

/** The query of a route that declares none. */
const NO_QUERY: Record<string, never> = Object.freeze({})

/**
 * Runs a route on a request: what the route declares is checked in order,
 * `security` (401), `params` and `query` (400, every problem listed), `guard`
 * (e.g. 404 for an unknown id), the `body` (415, 413, 400: D11; a POST that
 * reads none still refuses a non-JSON content type, 415), then
 * `handle` gets the validated values. Routes that declare no security, guard
 * or body are answered without a promise of their own.
 *
 * @example
 * const reply = await runRoute(route, request, url, { userId: 'u1' }, 1024 * 1024)
 */
export function runRoute(route: RouteDefinition, request: SimRequest, url: URL, params: Record<string, string>, bodyLimit: number, hold?: RequestHold): Reply | Promise<Reply> {
  // POST is the one method a page on another site may send without a preflight: it must not act on a text or form body.
  if (route.body === undefined && route.method === 'POST') refuseNonJson(request.headers.get('content-type'))
  if (route.security !== undefined || route.guard !== undefined || route.body !== undefined) return runChecked(route, request, url, params, bodyLimit, hold)
  return route.handle({
    request,
    url,
    params: route.params ? parseOrThrow(route.params, params) : params,
    query: route.query ? parseQuery(route.query, url) : NO_QUERY,
    body: undefined,
  })
}

async function runChecked(route: RouteDefinition, request: SimRequest, url: URL, raw: Record<string, string>, bodyLimit: number, hold: RequestHold | undefined): Promise<Reply> {
  if (route.security) await route.security.verify(request)
  const params = route.params ? parseOrThrow(route.params, raw) : raw
  const query = route.query ? parseQuery(route.query, url) : NO_QUERY
  if (route.guard) await route.guard({ request, url, params, query })
  const body = route.body === undefined ? undefined : await readBody(bodySpec(route.body), request, bodyLimit, hold)
  return route.handle({ request, url, params, query, body })
}

async function readBody(spec: BodySpec, request: SimRequest, bodyLimit: number, hold: RequestHold | undefined): Promise<unknown> {
  const text = await readJsonBody(request, { limit: spec.limit ?? bodyLimit, hold, ...(spec.parse ? { parse: spec.parse } : {}) })
  return spec.kind === 'raw' ? text : parseOrThrow(spec.schema, text)
}
