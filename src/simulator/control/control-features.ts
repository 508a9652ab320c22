import type { StoreStatus } from '../log/command-store.js'
import { bundleRoutes } from '../history/bundle-routes.js'
import type { BundleSource } from '../history/bundle-take.js'
import { controlRoutes } from './control-routes.js'
import { eventRoutes } from '../events/event-routes.js'
import { faultRoutes } from '../faults/fault-routes.js'
import { historyRoutes } from '../history/history-routes.js'
import type { Faults } from '../faults/faults.js'
import type { RequestJournal } from '../journal/journal-entry.js'
import { journalRoutes } from '../journal/journal-routes.js'
import { type RecordingControl, recordingRoutes } from '../recording/recording-routes.js'
import type { Simulator } from '../simulator.js'
import { worldRoutes } from '../worlds/world-routes.js'
import type { Worlds } from '../worlds/worlds.js'

/** What every control feature's routes may use: the simulator (or world) a request is for, and its parts. */
export interface ControlContext {
  /** The simulator (or world) the request is for; what a bundle is taken from too. */
  sim: Simulator & BundleSource
  journal: RequestJournal
  faults: Faults
  worlds: Worlds<Simulator>
  /** Where the control API is mounted (`/__mock`). */
  prefix: string
  /** The shared store's state (`serve --store`), `undefined` without one. */
  store: () => (StoreStatus & { applied: string }) | undefined
  /** The server's recording of real traffic (`serve --record`), `undefined` without one. */
  recording: () => RecordingControl | undefined
}

/**
 * The control API under `/__mock` (D26), one line per feature, as the areas
 * are one line each in `src/areas/registry.ts`: a new control feature is its
 * own route file plus a line here. `managesWorlds`: its routes answer even
 * when a request names a world that does not exist (they are how worlds are
 * made). The order is the route table's and the OpenAPI document's.
 *
 * @example
 * const routes = CONTROL_FEATURES.flatMap((feature) => feature.routes(context))
 */
export const CONTROL_FEATURES = [
  { id: 'simulator', routes: controlRoutes },
  { id: 'journal', routes: journalRoutes },
  { id: 'faults', routes: faultRoutes },
  { id: 'worlds', routes: worldRoutes, managesWorlds: true },
  { id: 'events', routes: eventRoutes },
  { id: 'recording', routes: recordingRoutes },
  { id: 'bundle', routes: bundleRoutes },
  { id: 'history', routes: historyRoutes },
] as const

/** What a simulator gives its control API: its parts, and what its family shares (the store's state, the server's recording). */
export type ControlParts = Omit<ControlContext, 'store' | 'recording'> & {
  family: { readonly log: { storeStatus(): (StoreStatus & { applied: string }) | undefined }; readonly recording: RecordingControl | undefined }
}

/** The control routes of one simulator, and those that manage worlds. */
export function controlApi({ family, ...parts }: ControlParts): { routes: ControlRoute[]; managing: ReadonlySet<ControlRoute> } {
  const context: ControlContext = { ...parts, store: () => family.log.storeStatus(), recording: () => family.recording }
  const routes: ControlRoute[] = []
  const managing = new Set<ControlRoute>()
  for (const feature of CONTROL_FEATURES) {
    const own: readonly ControlRoute[] = feature.routes(context)
    routes.push(...own)
    if ('managesWorlds' in feature) for (const route of own) managing.add(route)
  }
  return { routes, managing }
}

/** Any route of any control feature. */
export type ControlRoute = ReturnType<(typeof CONTROL_FEATURES)[number]['routes']>[number]
