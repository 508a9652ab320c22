import { describe, expectTypeOf, it } from 'vitest'
import type * as z from 'zod'
import { type SimulatorOptions, simulatorOptionsSchema } from './options.js'

/**
 * `SimulatorOptions` is written out so the API report and editors show it by
 * name; the schema stays the one source. `npm run typecheck` checks these
 * lines: a field added to, removed from or changed in either one fails it.
 */
describe('SimulatorOptions', () => {
  it('is the input type of simulatorOptionsSchema', () => {
    expectTypeOf<SimulatorOptions>().toEqualTypeOf<z.input<typeof simulatorOptionsSchema>>()
    expectTypeOf(simulatorOptionsSchema.parse).parameter(0).toBeUnknown()
  })
})
