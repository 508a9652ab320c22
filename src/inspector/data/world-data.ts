import type { Api } from '../api.js'

/** A mounted area as `GET /__mock/health` lists it. */
export interface AreaInfo {
  id: string
  letter: string
  title: string
  baseUrls: string[]
}

export interface ClockView {
  now: string
  fixed: boolean
}

/** A fault rule as `GET /__mock/faults` shows it (`fired`: how often it fired). */
export type FaultRuleView = Record<string, unknown> & { fired?: number }

/**
 * Everything the page shows of one world but the journal, read through the
 * control API only: the page's own reads never reach an area, so they never
 * show in the request journal your tests read.
 */
export interface WorldData {
  areas: AreaInfo[]
  /** `GET /__mock/state`: the whole world (no password hashes). */
  // biome-ignore lint/suspicious/noExplicitAny: the state document, read field by field by the page
  state: any
  clock: ClockView
  /** `performance.now()` when `clock` was read, to move a running clock on between reads. */
  clockReadAt: number
  faults: FaultRuleView[]
  scenarios: Array<{ name: string; description: string; active: boolean }>
  /** Replicas share the worlds (`serve --store`): other replicas' requests show only in the journal read back. */
  shared: boolean
}

/**
 * The base URL of an area as the page reaches it (its first, e.g. `/admin`),
 * or `undefined` when it is not mounted.
 *
 * @example
 * areaBase(data.areas, 'core') // '/core'
 */
export function areaBase(areas: readonly AreaInfo[], id: string): string | undefined {
  const base = areas.find((area) => area.id === id)?.baseUrls[0]
  return base === '/' ? '' : base
}

/**
 * Reads everything but the journal at once.
 *
 * @example
 * const data = await loadWorld(api)
 */
export async function loadWorld(api: Api): Promise<WorldData> {
  const control = api.control
  const [health, state, faults, scenarios] = await Promise.all([
    api.get(`${control}/health`),
    api.get(`${control}/state`),
    api.get(`${control}/faults`),
    api.get(`${control}/scenarios`),
  ])
  return {
    areas: health.body.areas as AreaInfo[],
    state: state.body,
    clock: health.body.clock as ClockView,
    clockReadAt: performance.now(),
    faults: faults.body.rules,
    scenarios: scenarios.body,
    shared: health.body.store !== undefined,
  }
}

/**
 * The simulator clock now, as the page last read it: a running clock has moved
 * on by the time elapsed since.
 *
 * @example
 * clockNow(data) // 1767225600000
 */
export function clockNow(data: Pick<WorldData, 'clock' | 'clockReadAt'>): number {
  const read = Date.parse(data.clock.now)
  return data.clock.fixed ? read : read + (performance.now() - data.clockReadAt)
}
