import { ConfigError } from '../../kernel/errors/config-error.js'
import { ScenarioError } from '../../kernel/errors/scenario-error.js'
import { jsonStream } from '../../kernel/http/json/json-stream.js'
import { STATE_DEPTH } from '../../simulator/control/control-routes.js'
import type { Simulator } from '../../simulator/create-simulator.js'
import type { Command } from '../../simulator/log/command.js'
import type { WorldSnapshot } from '../../simulator/state/state-lifecycle.js'
import type { WorldState } from '../../simulator/state/scenario-schema.js'

/** The log's first entry after a new state file: the default world's settings no state document holds. */
export interface SettingsEntry {
  kind: 'settings'
  settings: Omit<WorldSnapshot, 'state'>
}

/**
 * Whether a line of the log holds the world's settings rather than a command.
 *
 * @example
 * if (isSettings(entry)) await lifecycle.restoreSettings(entry.settings)
 */
export function isSettings(entry: Command | SettingsEntry): entry is SettingsEntry {
  return entry.kind === 'settings'
}

/**
 * One line of the state file's log (`path`: the state file's), or a one-line
 * `ConfigError` when it is not JSON.
 *
 * @example
 * const entry = parseLogEntry(line, '/data/world.json')
 */
export function parseLogEntry(entry: string, path: string): Command | SettingsEntry {
  try {
    return JSON.parse(entry) as Command | SettingsEntry
  } catch {
    throw new ConfigError(`The log ${path}.log holds a line that is not a change (edited by hand?); it was left as it is.`)
  }
}

/**
 * Imports the state file's text into `sim`: one that is not JSON or does not
 * validate is refused with a one-line `ConfigError` naming the file at `path`.
 *
 * @example
 * await importStateText(sim, await readFile(path, 'utf8'), path)
 */
export async function importStateText(sim: Simulator, text: string, path: string): Promise<void> {
  let state: unknown
  try {
    state = JSON.parse(text)
  } catch (error) {
    throw new ConfigError(`The state file ${path} is not JSON (${(error as Error).message.split('\n')[0]}); it was left as it is.`)
  }
  try {
    await sim.importState(state)
  } catch (error) {
    if (error instanceof ScenarioError) throw new ConfigError(`${error.message.replace('state document', `state file ${path}`)}; it was left as it is.`)
    throw error
  }
}

/**
 * The state document's bytes, streamed chunk by chunk (the same as
 * `JSON.stringify`, never the whole text at once), then a newline; `written`
 * is told the document's size once it is all produced.
 *
 * @example
 * await log.compact(stateText(sim.snapshot(), (bytes) => (size = bytes)))
 */
export async function* stateText(state: WorldState, written: (bytes: number) => void): AsyncGenerator<Uint8Array | string> {
  const reader = jsonStream(state, STATE_DEPTH).getReader()
  let bytes = 0
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      bytes += next.value.length
      yield next.value
    }
    written(bytes)
  } finally {
    // Stopped early (a failed write): the rest is never produced.
    await reader.cancel().catch(() => undefined)
  }
  yield '\n'
}
