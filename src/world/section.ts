import type { z } from 'zod'

/**
 * A part of the world that scenarios fill and the state API exports and
 * replaces: the shared accounts, or one area's own collections. Adding an area
 * adds a section; existing scenario and state files stay valid because every
 * section is optional in both.
 *
 * @example
 * const section: WorldSection<CoreScenario, CoreState> = { key: 'core', ... }
 */
export interface WorldSection<Scenario = unknown, State = unknown> {
  /** Top-level key in scenario and state JSON. */
  key: string
  /** What a scenario may say about this section (validated, then `load`ed). */
  scenarioSchema: z.ZodType<Scenario>
  /** The section's full state, as `GET /__mock/state` shows it. */
  stateSchema: z.ZodType<State>
  /** Empties the section, then fills it from a scenario (`undefined`: its default). */
  load(scenario: Scenario | undefined): Promise<void>
  /** The section's state; `secrets: true` keeps password hashes (in-process snapshots only). */
  export(options: { secrets: boolean }): State
  /** Empties the section, then fills it from already-validated state. */
  import(state: State): Promise<void>
}
