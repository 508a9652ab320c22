import type { z } from 'zod'

/**
 * What a part of the world says about its place in scenario and state
 * documents: its top-level key and its schemas, exactly as the documents use
 * them (optional in a scenario, with a default in the state). The scenario and
 * state schemas (and `scenario.schema.json`) are built from these.
 *
 * @example
 * const schemas = { key: 'core', scenarioSchema: coreScenario.optional(), stateSchema: coreState.default({ products: [], readings: [] }) }
 */
export interface SectionSchemas<Key extends string = string, Scenario extends z.ZodType = z.ZodType, State extends z.ZodType = z.ZodType> {
  /** Top-level key in scenario and state JSON. */
  key: Key
  /** What a scenario may say about this section (validated, then `load`ed); optional, so scenario files stay valid as sections are added. */
  scenarioSchema: Scenario
  /** The section's full state, as `GET /__mock/state` shows it. */
  stateSchema: State
}

/**
 * A part of the world that scenarios fill and the state API exports and
 * replaces: the shared accounts, or one area's own collections.
 *
 * @example
 * const store: SectionStore<CoreScenario | undefined, CoreState> = { load, export: exportState, import: importState }
 */
export interface SectionStore<Scenario = unknown, State = unknown> {
  /** Empties the section, then fills it from a scenario (`undefined`: its default). */
  load(scenario: Scenario): Promise<void>
  /**
   * What a scenario sets besides the state (a setting no state document holds):
   * `load` applies it too. A world seeded from a cached load (the same scenario,
   * seed and clock) runs this, then `import`s the cached state.
   */
  configure?(scenario: Scenario): void
  /** The section's state; `secrets: true` keeps password hashes (in-process snapshots only). */
  export(options: { secrets: boolean }): State
  /**
   * `true` when the section holds exactly `state` (as `export({ secrets: true })`
   * would give it), found without copying; `reset()` leaves such a section as it
   * is. Without it, `reset()` compares a fresh export.
   */
  holds?(state: State): boolean
  /**
   * Empties the section, then fills it from already-validated state. `trusted`:
   * the state is this simulator's own export (a `reset()`, a world seeded from a
   * kept load), so records need not be checked again.
   */
  import(state: State, options?: { trusted?: boolean }): Promise<void>
}

/** The store of a section whose schemas are `S`: it loads what the scenario schema gives and exports what the state schema takes. */
export type StoreOf<S extends SectionSchemas> = SectionStore<z.output<S['scenarioSchema']>, z.output<S['stateSchema']>>

/** A section as a simulator runs it: its key and its store. */
// biome-ignore lint/suspicious/noExplicitAny: a section of any scenario and state types (SectionStore is invariant in them)
export interface WorldSection extends SectionStore<any, any> {
  key: string
}
