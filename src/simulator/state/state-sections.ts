import { sameJson } from '../../kernel/data/same-json.js'
import type { WorldSection } from '../../world/section.js'
import type { World } from '../../world/world.js'
import type { WorldState } from './scenario-schema.js'

/**
 * A world's state document, read out of and written into its sections (the
 * shared accounts first, then the mounted areas'): what `StateLifecycle`
 * exports, imports and resets to.
 *
 * @example
 * const state = exportSections(world, sections, true)
 * await restoreSections(world, sections, state)
 */
export function exportSections(world: World, sections: readonly WorldSection[], secrets: boolean): WorldState {
  const state: Record<string, unknown> = { format: 1, seed: world.seed, meta: world.getMeta() }
  for (const section of sections) state[section.key] = section.export({ secrets })
  return state as WorldState
}

/** Puts `state` into every section; `trusted`: a state this simulator made, not checked again. */
export async function importSections(world: World, sections: readonly WorldSection[], state: WorldState, options?: { trusted: true }): Promise<void> {
  if (state.seed !== undefined) world.seed = state.seed
  if (state.meta) world.setMeta(state.meta)
  for (const section of sections) await section.import((state as Record<string, unknown>)[section.key], options)
}

/**
 * Back to `state` (the loaded one): a section whose export already equals it
 * (nothing written since, or written back) is left as it is, so a reset after
 * a test that wrote only users re-imports only the users. Comparing exports,
 * not counting writes, also sees writes made straight to `sim.db` records.
 */
export async function restoreSections(world: World, sections: readonly WorldSection[], state: WorldState): Promise<void> {
  if (state.seed !== undefined) world.seed = state.seed
  if (state.meta) world.setMeta(state.meta)
  for (const section of sections) {
    const initial = (state as Record<string, unknown>)[section.key]
    const unchanged = section.holds ? section.holds(initial) : sameJson(section.export({ secrets: true }), initial)
    if (!unchanged) await section.import(initial, { trusted: true })
  }
}
