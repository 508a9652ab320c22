import { fieldsOf } from '../../kernel/options/option-fields.js'
import { parseOptions } from '../../kernel/options/parse-options.js'
import type { Command } from '../log/command.js'
import type { CommandLog } from '../log/command-log.js'
import { Journal } from '../journal/journal.js'
import type { RequestJournal } from '../journal/journal-entry.js'
import { type SimulatorOptions, simulatorOptionsSchema } from '../options.js'
import { redactJson, redactUrl } from '../journal/redact.js'
import type { WorldState } from '../state/scenario-schema.js'
import { digestOfJson } from './json-digest.js'
import { BUNDLE_VERSION, type WorldBundle } from './world-bundle.js'

/** What a bundle is taken from: a world of a simulator family (a `SimulatorInstance`, or its engine). */
export interface BundleSource {
  /** The isolated world it is; `null` for the default world. */
  readonly worldId: string | null
  /** The options it was made with. */
  readonly options: SimulatorOptions
  readonly family: { readonly log: Pick<CommandLog<never>, 'serial' | 'history'> }
  readonly journal: RequestJournal
  /** Seals a command's passwords, as a bundle keeps it. */
  readonly writes: { seal(command: Command): Promise<Command> }
  exportState(): WorldState
  now(): string
}

/** How deep a bundle's state is taken apart to be hashed or written: its sections' collections are arrays at the third level. */
export const BUNDLE_STATE_DEPTH = 3

/** How deep a bundle is taken apart to be written: `start.state` is two levels below the state's own depth. */
export const BUNDLE_DEPTH = BUNDLE_STATE_DEPTH + 2

/**
 * Takes a world's bundle (issue 35), in its family's log's turn (between two
 * commands): its options, the world before its first kept command, every
 * command since, its journal, and the digest of its state now, which a
 * replay must give. Passwords stay sealed in the commands; the journal is
 * redacted as `GET /__mock/requests` shows it.
 *
 * @example
 * const bundle = await takeBundle(engineOf(sim))
 */
export function takeBundle(sim: BundleSource): Promise<WorldBundle> {
  const { log } = sim.family
  return log.serial(async () => {
    const history = log.history?.of(sim.worldId)
    if (history === undefined) throw new Error('This simulator keeps no history of its worlds.')
    // Hashed piece by piece: a large world is never one text here.
    const state = digestOfJson(sim.exportState(), BUNDLE_STATE_DEPTH)
    // Sealed now, not as each came: a history in memory costs a write nothing.
    const kept = await Promise.all(history.commands.map((command) => sim.writes.seal(command)))
    const journal = sim.journal instanceof Journal ? await sim.journal.list() : sim.journal.find()
    return {
      format: 1,
      package: 'multi-area-mock',
      version: BUNDLE_VERSION,
      world: sim.worldId,
      takenAt: sim.now(),
      state,
      options: bundleOptions(sim),
      // The history's start is the world's own (frozen records), shared, never changed: only its scenario is copied, redacted.
      start: withoutScenarioSecrets(history.start as unknown as Record<string, unknown>),
      folded: history.folded,
      // A secret in a query (`?api_key=`) reads as the journal shows it: no route reads one, so the replay is the same.
      commands: kept.map(({ method, url, body, sealed, at }) => ({
        method,
        url: redactUrl(url),
        ...(body === undefined ? {} : { body }),
        ...(sealed === undefined ? {} : { sealed }),
        at,
      })),
      journal,
    }
  })
}

/**
 * The options that shape the world's answers, as JSON: the simulator's own
 * options only (never a server's host, port or control token), without
 * functions or secrets; a clock object is left to the setting `start` keeps.
 */
function bundleOptions(sim: BundleSource): Record<string, unknown> {
  const checked = parseOptions(simulatorOptionsSchema, sim.options) as Record<string, unknown>
  const { clock, ...rest } = checked
  const json = JSON.parse(JSON.stringify(rest)) as Record<string, unknown>
  if (typeof clock === 'string') json.clock = clock
  // A secret option (the JWT secret) never goes in a bundle: the replaying server gives its own (--jwt-secret, or the environment).
  for (const field of fieldsOf(simulatorOptionsSchema)) if (field.meta.secret) dropAt(json, field.path)
  // Scenario documents' passwords are redacted: the users they seeded keep their hashes in `start`.
  if (typeof json.scenario === 'object') json.scenario = redactJson(json.scenario)
  if (json.scenarios !== undefined) json.scenarios = redactJson(json.scenarios)
  return json
}

/** The start snapshot with its scenario document's passwords redacted (never the state's hashes, which logins after a replay need). */
function withoutScenarioSecrets(start: Record<string, unknown>): Record<string, unknown> {
  const chosen = start.chosen as { scenario?: unknown } | undefined
  if (chosen?.scenario === undefined) return start
  return { ...start, chosen: { ...chosen, scenario: redactJson(chosen.scenario) } }
}

function dropAt(json: Record<string, unknown>, path: readonly string[]): void {
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], json) as Record<string, unknown> | undefined
  if (parent !== undefined && typeof parent === 'object') delete parent[path.at(-1)!]
}
