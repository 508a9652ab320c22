import { bodySpec, type RouteDefinition, type RouteInput } from '../../kernel/routing/route.js'

/**
 * What a command keeps of a write's body (issue 43): the route's validated
 * input as JSON, so what a request carries beyond what its route reads (extra
 * keys, passwords or seeds nobody reads, deep junk) is never kept, sealed,
 * logged or replayed. A route's schema reads its own output as it read the
 * request (a test holds every route to that), so a replica or a replay
 * applying the kept text reads what this process read. A `raw` body, which
 * its handler checks as a whole, is kept as it came: bounded by the route's
 * limit and the depth every body is held to. A route that reads no body keeps
 * none.
 *
 * @example
 * keptBody(route, await prepareRoute(route, request, url, params, limit)) // '{"recipient_ids":[1],"message":"hi","priority":"normal"}'
 */
export function keptBody(route: RouteDefinition, input: RouteInput<unknown, unknown, unknown>): string | undefined {
  if (route.body === undefined || input.body === undefined) return undefined
  if (bodySpec(route.body).kind === 'raw') return input.request.bodyText
  return bodyText(input.body)
}

/**
 * A validated body as a command keeps it. Without a replacer first: one
 * called for every key was a measurable part of each write, and only Area E's
 * amounts (big integers) need it.
 *
 * @example
 * bodyText({ amount: 10n }) // '{"amount":"10"}'
 */
export function bodyText(value: unknown): string {
  try {
    return JSON.stringify(value)
  } catch (error) {
    if (!(error instanceof TypeError)) throw error
    return JSON.stringify(value, bigIntegersAsText)
  }
}

/** Area E's amounts are big integers once read; their schema takes the same digits as a string. */
function bigIntegersAsText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value
}
