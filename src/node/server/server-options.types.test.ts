import { describe, expectTypeOf, it } from 'vitest'
import type * as z from 'zod'
import type { ServerOptions, serverOptionsSchema } from './server-options.js'

/** One object type with the members of `T`, so an intersection compares field by field. */
type Flat<T> = { [K in keyof T]: T[K] }

/**
 * `ServerOptions` is written out so the API report and editors show it by
 * name; the schema stays the one source. `npm run typecheck` checks these
 * lines: a field added to, removed from or changed in either one fails it.
 */
describe('ServerOptions', () => {
  it('is the input type of serverOptionsSchema', () => {
    expectTypeOf<Flat<ServerOptions>>().toEqualTypeOf<z.input<typeof serverOptionsSchema>>()
    expectTypeOf<ServerOptions>().toExtend<z.input<typeof serverOptionsSchema>>()
    expectTypeOf<z.input<typeof serverOptionsSchema>>().toExtend<ServerOptions>()
  })
})
