import { engineOf } from '../../simulator/engine.js'
import type { ScenarioFileEvent } from '../../simulator/events/scenario-file-event.js'
import { CONTROL_PREFIX, type Simulator } from '../../simulator/simulator.js'
import type { ScenarioInput } from '../../simulator/state/scenario-schema.js'
import { readScenarioFile } from '../files/scenario-file.js'
import { FileWatch } from './file-watch.js'

export interface ScenarioWatchOptions {
  /** The file as the command line named it (`./team.json`): how the lines name it. */
  file: string
  /** The name the server registered the file's scenario under: the file's name without `.json` (`team`). */
  name: string
  /** The server's simulator. */
  simulator: Simulator
  /** The server's origin (`http://127.0.0.1:4000`): the load is a request to it, kept as one. */
  origin: string
  /**
   * The object registered under the file's name (the `scenarios` option's).
   * Its content is replaced in place by each good version of the file, so
   * every load by that name (`POST /__mock/scenarios/{name}`, a new isolated
   * world, a bundle's options) reads the new one.
   */
  registered: ScenarioInput
  /** One line per change that did something: `scenario ./team.json changed: reloaded (3 users)`. */
  onReload: (line: string) => void
  /** One line per change that did nothing, and why: a broken file, a watch that stopped. */
  onProblem: (line: string) => void
  /** Milliseconds without a change before the file is read (default `SETTLE_MS`). */
  settleMs?: number
}

/**
 * `serve --watch`: each change of the scenario file (a save, however many
 * writes it took) reloads the world from it as `POST /__mock/scenarios/{name}`
 * would, through the same command, so the history, the state file and the
 * journal see a load like any other. Each change prints one line and sends
 * one `scenario-file` event on the default world's `/__mock/events`. A file
 * that cannot be read or fails the scenario schema changes nothing: the
 * world stays as it was. A save that changes nothing reloads nothing; when
 * the world runs another scenario, only what the name loads changes.
 *
 * @example
 * const watch = watchScenarioFile({ file: './team.json', simulator, origin, registered, onReload: print, onProblem: warn })
 * await watch.close()
 */
export function watchScenarioFile(options: ScenarioWatchOptions): { close(): Promise<void> } {
  const { file, name, simulator, registered, onReload, onProblem } = options
  const engine = engineOf(simulator)
  const report = (event: ScenarioFileEvent) => engine.reportScenarioFile(event)
  let loaded = JSON.stringify(registered)
  let broken = false
  const watch: FileWatch = new FileWatch(
    file,
    async (): Promise<void> => {
      let scenario: ScenarioInput
      try {
        ;({ scenario } = await readScenarioFile(file))
      } catch (error) {
        broken = true
        const reason = oneLine(error)
        onProblem(`scenario ${file} changed but was not reloaded (the world stays as it was): ${reason}`)
        return report({ file: watch.file, scenario: name, status: 'invalid', error: reason })
      }
      const content = JSON.stringify(scenario)
      if (content === loaded && !broken) return
      broken = false
      loaded = content
      await engine.family.log.serial(async () => {
        replaceContent(registered, scenario)
        // Loads of this name already in the worlds' histories would replay with the new content:
        // every history starts again from the worlds as they are, as after a restart with the new file.
        engine.family.log.history?.clear()
      })
      if (simulator.scenario !== name) {
        onReload(`scenario ${file} changed: "${name}" loads the new content (the world runs "${simulator.scenario}"; POST ${CONTROL_PREFIX}/scenarios/${name} loads it)`)
        return report({ file: watch.file, scenario: name, status: 'registered' })
      }
      const response = await simulator.fetch(new Request(`${options.origin}${CONTROL_PREFIX}/scenarios/${encodeURIComponent(name)}`, { method: 'POST' }))
      if (response?.status !== 200) {
        const reason = ((await response?.json().catch(() => undefined)) as { message?: string } | undefined)?.message ?? `status ${response?.status ?? 'none'}`
        onProblem(`scenario ${file} changed but was not reloaded: ${reason}`)
        return report({ file: watch.file, scenario: name, status: 'invalid', error: reason })
      }
      const counts = simulator.counts()
      onReload(`scenario ${file} changed: reloaded (${describeCounts(counts)})`)
      report({ file: watch.file, scenario: name, status: 'reloaded', counts })
    },
    { settleMs: options.settleMs, onError: (error) => onProblem(`stopped watching ${file}: ${oneLine(error)}`) },
  )
  return { close: () => watch.close() }
}

/**
 * The world's records in words, those it has: `3 users, 1 product`.
 *
 * @example
 * describeCounts({ users: 3, products: 1, tokens: 0 }) // '3 users, 1 product'
 */
export function describeCounts(counts: Record<string, number>): string {
  const held = Object.entries(counts).filter(([, count]) => count > 0)
  if (held.length === 0) return 'no records'
  return held.map(([kind, count]) => `${count} ${count === 1 ? kind.replace(/s$/, '') : kind}`).join(', ')
}

/** Makes `target` hold what `source` holds, keeping its identity: every reader of the registered scenario sees the new one. */
function replaceContent(target: ScenarioInput, source: ScenarioInput): void {
  const record = target as Record<string, unknown>
  for (const key of Object.keys(record)) delete record[key]
  Object.assign(record, source)
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ')
}
