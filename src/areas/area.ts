import type { Collection } from '@msw/data'
import type * as z from 'zod'
import type { RouteDefinition } from '../kernel/routing/route.js'
import type { AccountStore } from '../world/accounts/account-store.js'
import type { AreaRecording } from '../world/recording.js'
import type { SectionSchemas, StoreOf } from '../world/section.js'
import type { World } from '../world/world.js'

/** An area's collections, merged into `sim.db` under their names. */
// biome-ignore lint/suspicious/noExplicitAny: any area definition: its options type varies per area and is contravariant
export type AreaCollections = Record<string, Collection<any>>

/** What an area is given: the shared world and accounts (D4, D5), and its own options, checked. */
export interface AreaContext<Options = unknown> {
  world: World
  accounts: AccountStore
  options: Options
}

/** A live area inside one simulator. */
export type AreaInstance<Collections extends AreaCollections = AreaCollections, Section extends SectionSchemas | undefined = SectionSchemas | undefined, Api = unknown> = {
  routes: RouteDefinition[]
  /** The area's own collections, merged into `sim.db`. */
  collections?: Collections
  /** Members the area adds to the simulator (`sim.readings`). */
  api?: Api
  /** Extra `counts()` entries, besides one per collection. */
  counts?(): Record<string, number>
} & (Section extends SectionSchemas
  ? {
      /** The area's part of scenarios and state: what fills, exports and replaces it. */
      section: StoreOf<Section>
    }
  : { section?: undefined })

/**
 * An area: how it is named and mounted, its options, its part of scenarios and
 * state, and a factory called once per simulator, so two simulators never share
 * an area's state. `src/areas/registry.ts` lists the areas; everything else
 * (options, CLI flags, `sim.db`, the scenario and state schemas, fault rules'
 * area ids) is derived from the list.
 *
 * @example
 * export const adminArea = defineArea({ id: 'admin', letter: 'A', title: 'User administration', prefix: '/admin', options: {}, section: undefined, create })
 */
export interface AreaDefinition<
  Id extends string = string,
  Options extends z.ZodRawShape = z.ZodRawShape,
  Collections extends AreaCollections = AreaCollections,
  Section extends SectionSchemas | undefined = SectionSchemas | undefined,
  Api = unknown,
> {
  /** Id in the `areas` option, `--root`, fault rules and the journal (D1). */
  id: Id
  letter: string
  title: string
  /** Default mount point (D1). */
  prefix: string
  /** The area's options, top-level fields of the simulator's options (`option()` gives them their CLI flags). */
  options: Options
  /** The area's place in scenario and state documents; `undefined` when it keeps nothing of its own. */
  section: Section
  /** What the area's answers show about the records behind them, for `serve --record` and `scenario from-har` (issue 34). */
  recording?: AreaRecording
  create(context: AreaContext<z.output<z.ZodObject<Options>>>): AreaInstance<Collections, Section, Api>
}

/** Any area, as lists of areas hold them. */
// biome-ignore lint/suspicious/noExplicitAny: any area definition: its options type varies per area and is contravariant
export type AnyArea = AreaDefinition<string, z.ZodRawShape, AreaCollections, SectionSchemas | undefined, any>

/**
 * Types an area definition from its parts (an identity function, as h3's `defineRoute`).
 *
 * @example
 * export const quantumArea = defineArea({ id: 'quantum', letter: 'C', ..., create: ({ world }) => ({ routes, collections, section }) })
 */
export function defineArea<
  const Id extends string,
  Options extends z.ZodRawShape,
  Section extends SectionSchemas | undefined,
  Collections extends AreaCollections = {},
  Api = unknown,
>(definition: AreaDefinition<Id, Options, Collections, Section, Api>): AreaDefinition<Id, Options, Collections, Section, Api> {
  return definition
}
