import { readJsonBody, refuseNonJson } from '../http/json/json-body.js'
import { parseQuery } from '../http/query.js'
import type { RequestHold } from '../http/request-hold.js'
import type { Reply } from '../http/reply.js'
import type { SimRequest } from '../http/sim-request.js'
import { parseOrThrow } from '../http/validate.js'
import { type BodySpec, bodySpec, type RouteDefinition, type RouteInput } from './route.js'

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
  if (route.security !== undefined || route.guard !== undefined || route.body !== undefined) {
    return prepareRoute(route, request, url, params, bodyLimit, { hold }).then((input) => route.handle(input))
  }
  // POST is the one method a page on another site may send without a preflight: it must not act on a text or form body.
  if (route.method === 'POST') refuseNonJson(request.headers.get('content-type'))
  return route.handle({
    request,
    url,
    params: route.params ? parseOrThrow(route.params, params) : params,
    query: route.query ? parseQuery(route.query, url) : NO_QUERY,
    body: undefined,
  })
}

async function readBody(spec: BodySpec, request: SimRequest, bodyLimit: number, hold: RequestHold | undefined): Promise<unknown> {
  const text = await readJsonBody(request, { limit: spec.limit ?? bodyLimit, hold, ...(spec.parse ? { parse: spec.parse } : {}) })
  return spec.kind === 'raw' ? text : parseOrThrow(spec.schema, text)
}

/**
 * The checks of `runRoute` without the answer: `security` (unless `trusted`:
 * a kept command, checked by the replica that accepted it), `params`, `query`,
 * `guard` and the body, giving what `handle` takes. A write is prepared where it
 * arrives (a bad request is answered there and becomes no command), then
 * applied in the world's order with `applyRoute`.
 *
 * @example
 * const input = await prepareRoute(route, request, url, params, limit)
 * const reply = await applyRoute(route, input)
 */
export async function prepareRoute(
  route: RouteDefinition,
  request: SimRequest,
  url: URL,
  raw: Record<string, string>,
  bodyLimit: number,
  options: { hold?: RequestHold; trusted?: boolean } = {},
): Promise<RouteInput<unknown, unknown, unknown>> {
  if (route.body === undefined && route.method === 'POST') refuseNonJson(request.headers.get('content-type'))
  if (route.security !== undefined && !options.trusted) await route.security.verify(request)
  const params = route.params ? parseOrThrow(route.params, raw) : raw
  const query = route.query ? parseQuery(route.query, url) : NO_QUERY
  if (route.guard) await route.guard({ request, url, params, query })
  const body = route.body === undefined ? undefined : await readBody(bodySpec(route.body), request, bodyLimit, options.hold)
  return { request, url, params, query, body }
}

/**
 * Answers a prepared write against the world as it is now: `guard` again (the
 * world may have changed since it was prepared: another replica's command came
 * first), then `handle`.
 *
 * @example
 * const reply = await applyRoute(route, await prepareRoute(route, request, url, params, limit))
 */
export async function applyRoute(route: RouteDefinition, input: RouteInput<unknown, unknown, unknown>): Promise<Reply> {
  if (route.guard) await route.guard(input)
  return route.handle(input)
}
