// @ts-check
// What makes a throughput run untrustworthy: non-2xx answers, connection errors, timeouts, nothing measured, or 201s that created no user.

import { LIST_PATH } from '../scenarios.js'
import { capture } from './fixtures.js'

/**
 * Problems in one run: non-2xx answers, errors, timeouts, nothing measured.
 *
 * @param {string} label
 * @param {import('./wrk.js').LoadFigures} result
 */
export function check(label, result) {
  const problems = []
  if (result.non2xx > 0) problems.push(`${label}: ${result.non2xx} non-2xx responses`)
  if (result.errors > 0) problems.push(`${label}: ${result.errors} connection errors`)
  if (result.timeouts > 0) problems.push(`${label}: ${result.timeouts} timeouts`)
  if (result.ok === 0) problems.push(`${label}: no 2xx responses at all`)
  return problems
}

/**
 * A run's counts in one bracket, as every line of the output shows them.
 *
 * @param {{ ok: number, non2xx: number, errors: number, timeouts: number }} result
 */
export function summary(result) {
  return `[2xx ${result.ok}; non2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}]`
}

/**
 * Every 201 of a create row must have created a user: the world grew from the
 * seeded one by exactly that much. The load generator stops with one request
 * in flight per connection, which the server may still answer uncounted; that
 * much is allowed, no more.
 *
 * @param {string} label
 * @param {import('./processes.js').Server} server
 * @param {{ seeded: number, created201: number, runs: number, connections: number }} counts runs: load runs on this server (warm-up and measured)
 */
export async function worldIntegrity(label, server, { seeded, created201, runs, connections }) {
  const after = await capture(server.url, 'GET', `${LIST_PATH}?limit=1`, 200)
  const usersAfter = Number(after.headers['x-total-count'])
  const uncounted = usersAfter - seeded - created201
  const text = `${label}: users seeded ${seeded}, 201s counted ${created201}, users after ${usersAfter} (${uncounted} created by requests in flight when a run stopped; at most ${runs * connections})`
  return { ok: uncounted >= 0 && uncounted <= runs * connections, text }
}
