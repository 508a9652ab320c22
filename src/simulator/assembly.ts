import type { AnyArea, AreaInstance } from '../areas/area.js'
import { ALL_AREAS, type AreaApis, type AreaId } from '../areas/registry.js'
import { ConfigError } from '../kernel/errors/config-error.js'
import { Dispatcher } from '../kernel/routing/dispatcher.js'
import type { Mount, RouteDefinition } from '../kernel/routing/route.js'
import type { AccountStore } from '../world/accounts/account-store.js'
import { accountsSection, accountsSectionSchemas } from '../world/accounts/accounts-section.js'
import type { WorldSection } from '../world/section.js'
import type { World } from '../world/world.js'
import { formatBaseUrl, parseBaseUrl } from './pipeline/base-url.js'
import type { CheckedOptions } from './options.js'
import { CONTROL_AREA } from './simulator.js'
import { CONTROL_PREFIX, type MountedArea, type SimulatorDb } from './simulator.js'

/** The areas of one simulator, created and mounted. */
export interface AssembledAreas {
  areas: MountedArea[]
  /** Where each area answers: its base URL, and `/` too when it is a root (D2). */
  mounts: Mount[]
  db: SimulatorDb
  /** The shared accounts first, then each mounted area's section, in mounting order. */
  sections: WorldSection[]
  /** What the mounted areas add to the simulator (`readings`). */
  api: Partial<AreaApis>
  /** Extra `counts()` entries of the mounted areas (`readings`). */
  counts(): Record<string, number>
}

/**
 * Creates the areas the options enable (all by default), in mounting order
 * (`src/areas/registry.ts`), each on the shared world and accounts, and
 * mounts them at their base URLs.
 *
 * @example
 * const assembled = assembleAreas(parseOptions(simulatorOptionsSchema, { areas: ['admin'] }), world, accounts)
 */
export function assembleAreas(options: CheckedOptions, world: World, accounts: AccountStore): AssembledAreas {
  const wanted = options.areas
  const enabled: readonly AnyArea[] = wanted ? ALL_AREAS.filter((area) => wanted.includes(area.id)) : ALL_AREAS
  const roots = new Set<string>(options.root ?? [])
  const baseUrls: Partial<Record<string, string>> = options.baseUrls ?? {}
  const assembled: AssembledAreas = {
    areas: [],
    mounts: [],
    db: { users: accounts.view },
    sections: [{ key: accountsSectionSchemas.key, ...accountsSection(world, accounts) }],
    api: {},
    counts: () => Object.assign({}, ...counters.map((count) => count())),
  }
  const counters: Array<() => Record<string, number>> = []
  for (const area of enabled) {
    const instance: AreaInstance = area.create({ world, accounts, options })
    Object.assign(assembled.db, instance.collections)
    Object.assign(assembled.api, instance.api)
    if (instance.counts) counters.push(instance.counts)
    if (area.section && instance.section) assembled.sections.push({ key: area.section.key, ...instance.section })
    const base = parseBaseUrl(baseUrls[area.id] ?? area.prefix)
    assembled.mounts.push({ area: area.id, origin: base.origin, prefix: base.prefix, routes: instance.routes })
    const urls = [formatBaseUrl(base)]
    if (roots.has(area.id)) {
      assembled.mounts.push({ area: area.id, origin: base.origin, prefix: '', routes: instance.routes })
      urls.push(formatBaseUrl({ origin: base.origin, prefix: '' }))
    }
    assembled.areas.push({ id: area.id as AreaId, letter: area.letter, title: area.title, baseUrls: urls })
  }
  for (const id of roots) {
    if (!enabled.some((area) => area.id === id)) throw new ConfigError(`Cannot mount area "${id}" at the root: it is not enabled.`)
  }
  return assembled
}

/**
 * The route table of one simulator: the control API under `/__mock` (D26)
 * first, then the areas; its 404s list the mounted areas (D27).
 */
export function routeTable(assembled: Pick<AssembledAreas, 'areas' | 'mounts'>, control: RouteDefinition[]): Dispatcher {
  return new Dispatcher([{ area: CONTROL_AREA, origin: null, prefix: CONTROL_PREFIX, routes: control }, ...assembled.mounts], {
    areas: assembled.areas.map(({ id, letter, baseUrls }) => ({ id, letter, baseUrls })),
    control: CONTROL_PREFIX,
  })
}
