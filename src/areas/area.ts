import type { Collection } from '@msw/data'
import type { RouteDefinition } from '../kernel/routing/route.js'
import type { Readings } from './core/reading-window.js'
import type { AccountStore } from '../world/accounts/account-store.js'
import type { WorldSection } from '../world/section.js'
import type { World } from '../world/world.js'

/** Ids of the areas, as used by the `areas` option and `--root` (D1). */
export type AreaId = 'admin' | 'core' | 'quantum' | 'general' | 'ledger'

/**
 * Per-area settings given to `createSimulator` (and from CLI flags). Each area
 * adds its own optional fields here; the simulator passes them through as given.
 */
export interface AreaOptions {
  /**
   * Area D access tokens (D7): the HS256 `secret` (default: derived from the
   * seed, D24) and the lifetime `expiresIn` in seconds (default 3600).
   */
  auth?: { secret?: string; expiresIn?: number }
  /** Area E: how delegation signatures are checked (D23): `format` (default, shape only), `eip191` or `eip712`. */
  signatureMode?: 'format' | 'eip191' | 'eip712'
  /** Area E: time between blocks (D21), milliseconds or a duration like `'6s'`. Default: the scenario's, else 6 s. */
  blockTime?: number | string
  /**
   * Area B: how many ingested points are kept (D15), per sensor (`sensorWindow`,
   * default 10,000) and in all (`window`, default 500,000). The oldest go first;
   * the counts (`sim.readings.counts()`) stay exact. 0 keeps none.
   */
  ingestion?: { sensorWindow?: number; window?: number }
}

/** What an area is given: the shared world and the shared accounts (D4, D5). */
export interface AreaContext {
  world: World
  accounts: AccountStore
  options: AreaOptions
}

/** A live area inside one simulator. */
export interface AreaInstance {
  routes: RouteDefinition[]
  /** The area's own collections, merged into `sim.db`. */
  collections?: Record<string, Collection<any>>
  /** The area's own part of scenarios and state. */
  section?: WorldSection<any, any>
  /** Area B: what was ingested, shown as `sim.readings`. */
  readings?: Readings
}

/**
 * How an area plugs into the simulator: a description plus a factory called
 * once per simulator, so two simulators never share an area's state.
 *
 * @example
 * export const adminArea: AreaFactory = { id: 'admin', letter: 'A', title: '…', prefix: '/admin', create }
 */
export interface AreaFactory {
  id: AreaId
  letter: string
  title: string
  /** Default mount point (D1). */
  prefix: string
  create(context: AreaContext): AreaInstance
}
