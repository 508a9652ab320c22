import type { AreaId } from '../areas/registry.js'
import type { CheckContext } from './check-context.js'

/**
 * One conformance check: a rule of the interface or a decision, exercised
 * over HTTP. It creates what it reads (names carry the run's prefix), undoes
 * what it can, and throws `CheckFailure` (a departure), `CheckSkipped` (cannot
 * run here) or `ProbeError` (no answer); returning means it passed.
 *
 * @example
 * check({ name: 'quantum.status', area: 'quantum', operation: 'GET /v1/status', title: 'documented platform status', writes: false,
 *   async run(ctx) { expectConforms(ctx, 'quantum', 'GET /v1/status', await ctx.probe('quantum').send('GET', '/v1/status'), 200) } })
 */
export interface Check {
  name: string
  area: AreaId
  operation: string
  title: string
  /** Creates or changes something: skipped under `--read-only`. */
  writes: boolean
  run(ctx: CheckContext): Promise<void>
}

/** Declares a check (typed, so a missing field is a compile error). */
export function check(definition: Check): Check {
  return definition
}
