import type { AreaFactory } from '../areas/area.js'
import { type Readings, ReadingWindow } from '../areas/core/index.js'
import { ALL_AREAS } from '../areas/registry.js'
import { ConfigError } from '../kernel/errors/config-error.js'
import { Dispatcher } from '../kernel/routing/dispatcher.js'
import type { Mount, RouteDefinition } from '../kernel/routing/route.js'
import type { AccountStore } from '../world/accounts/account-store.js'
import { accountsSection } from '../world/accounts/accounts-section.js'
import type { WorldSection } from '../world/section.js'
import type { World } from '../world/world.js'
import { formatBaseUrl, parseBaseUrl } from './base-url.js'
import type { SimulatorOptions } from './options.js'
import { CONTROL_AREA } from './request-pipeline.js'
import { CONTROL_PREFIX, type MountedArea, type SimulatorDb } from './simulator.js'

/** The areas of one simulator, created and mounted. */
export interface AssembledAreas {
  areas: MountedArea[]
  /** Where each area answers: its base URL, and `/` too when it is a root (D2). */
  mounts: Mount[]
  db: SimulatorDb
  /** The shared accounts first, then each mounted area's section, in mounting order. */
  sections: WorldSection[]
  /** Area B's readings, or an empty window when it is not mounted. */
  readings: Readings
  /** Extra `counts()` entries of the mounted areas (`readings`). */
  counts(): Record<string, number>
}

/**
 * Creates the areas the options enable (all by default), in mounting order,
 * each on the shared world and accounts, and mounts them at their base URLs.
 *
 * @example
 * const assembled = assembleAreas({ areas: ['admin'] }, world, accounts)
 */
export function assembleAreas(options: SimulatorOptions, world: World, accounts: AccountStore): AssembledAreas {
  const enabled = enabledAreas(options)
  const roots = new Set(options.root ?? [])
  const db: SimulatorDb = { users: accounts.view }
  const sections: WorldSection[] = [accountsSection(world, accounts)]
  const mounts: Mount[] = []
  const areas: MountedArea[] = []
  let readings: Readings | undefined
  for (const area of enabled) {
    const instance = area.create({ world, accounts, options })
    Object.assign(db, instance.collections)
    readings ??= instance.readings
    if (instance.section) sections.push(instance.section)
    const base = parseBaseUrl(options.baseUrls?.[area.id] ?? area.prefix)
    mounts.push({ area: area.id, origin: base.origin, prefix: base.prefix, routes: instance.routes })
    const baseUrls = [formatBaseUrl(base)]
    if (roots.has(area.id)) {
      mounts.push({ area: area.id, origin: base.origin, prefix: '', routes: instance.routes })
      baseUrls.push(formatBaseUrl({ origin: base.origin, prefix: '' }))
    }
    areas.push({ id: area.id, letter: area.letter, title: area.title, baseUrls })
  }
  for (const id of roots) {
    if (!enabled.some((area) => area.id === id)) throw new ConfigError(`Cannot mount area "${id}" at the root: it is not enabled.`)
  }
  const kept = readings
  return {
    areas,
    mounts,
    db,
    sections,
    readings: kept ?? new ReadingWindow({ sensorWindow: 0, window: 0 }),
    counts: (): Record<string, number> => (kept ? { readings: kept.counts().stored } : {}),
  }
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

function enabledAreas(options: SimulatorOptions): AreaFactory[] {
  const wanted = options.areas
  if (!wanted) return [...ALL_AREAS]
  for (const id of wanted) {
    if (!ALL_AREAS.some((area) => area.id === id)) {
      throw new ConfigError(`Unknown area "${id}". Known areas: ${ALL_AREAS.map((area) => area.id).join(', ')}.`)
    }
  }
  return ALL_AREAS.filter((area) => wanted.includes(area.id))
}
