import type { AreaId } from '../areas/registry.js'
import { ConfigError } from '../kernel/errors/config-error.js'
import { ANY_HOST } from '../node/gate/host-policy.js'
import { isLoopbackHost } from '../node/gate/loopback-host.js'
import { looksLikePath, readScenarioFile } from '../node/files/scenario-file.js'
import { startServer } from '../node/server/server.js'
import { CONTROL_TOKEN_ENV, type ServerOptions } from '../node/server/server-options.js'
import { watchScenarioFile } from '../node/watch/scenario-watch.js'
import type { FaultRule } from '../simulator/faults/fault-rule.js'
import type { ScenarioInput } from '../simulator/state/scenario-schema.js'
import { CONTROL_PREFIX } from '../simulator/simulator.js'
import { type Flag, optionsFromFlags } from './options.js'
import { DEFAULT_SCENARIO } from '../simulator/state/builtin-scenarios.js'
import { refuseWorldOptions, worldOptionsGiven } from '../node/replay/server-replay.js'
import { serveBanner } from './serve-banner.js'

/** What `serve` reads besides the options' own flags. */
interface ServeOnlyFlags {
  scenario: string
  /** `--watch`: reload the `--scenario` file when it changes. */
  watch?: boolean
  quiet?: boolean
  fault?: FaultRule[]
  latency?: number | [number, number]
  /** `--proxy area=url` (repeatable): checked by `startServer` (src/node/proxy/proxy-targets.ts). */
  proxy?: Partial<Record<AreaId, string>>
}

/** `multi-area-mock serve`: starts the server, prints the banner, stops cleanly on SIGINT/SIGTERM. */
export async function serve(values: Record<string, unknown>, flags: readonly Flag[]): Promise<void> {
  const started = performance.now()
  const { scenario: named, watch, quiet, fault, latency, proxy } = values as unknown as ServeOnlyFlags
  const flagged = optionsFromFlags(values, flags)
  const replaying = flagged.replay !== undefined
  // The bundle's world, exactly: a flag that would change it is refused, not silently ignored.
  // (`--scenario default` cannot be told from no flag: it is the bundle's scenario that loads.)
  if (replaying) {
    const own = [
      ...(named === DEFAULT_SCENARIO ? [] : ['--scenario']),
      ...(watch ? ['--watch'] : []),
      ...(fault === undefined ? [] : ['--fault']),
      ...(latency === undefined ? [] : ['--latency']),
    ]
    refuseWorldOptions([...own, ...worldOptionsGiven(flagged)])
  }
  if (watch) refuseWatch(named, flagged)
  let scenario: string = named
  let scenarios: Record<string, ScenarioInput> = {}
  if (!replaying && looksLikePath(named)) {
    const file = await readScenarioFile(named)
    // A computed key is always an own property: a file named `__proto__.json` must not set the prototype.
    scenarios = { [file.name]: file.scenario }
    scenario = file.name
  }
  const options: ServerOptions = {
    ...flagged,
    ...(replaying ? {} : { scenario, scenarios }),
    ...(proxy === undefined ? {} : { proxy }),
    // --latency first: it adds to every request, whatever the other rules do.
    ...(replaying ? {} : { faults: [...(latency === undefined ? [] : [{ latency }]), ...(fault ?? [])] }),
    ...(quiet ? {} : { log: (line: string) => process.stdout.write(`${line}\n`) }),
  }
  const running = await startServer(options)
  const watching = watch
    ? watchScenarioFile({
        file: named,
        name: scenario,
        simulator: running.simulator,
        origin: running.url,
        // The very object the simulator registered: the watch replaces its content, so loads by name read the new one.
        registered: scenarios[scenario]!,
        onReload: (line) => process.stdout.write(`${line}\n`),
        onProblem: (line) => process.stderr.write(`multi-area-mock: ${line}\n`),
      })
    : undefined
  // Listening for the signals before the banner: whoever reads the banner may stop us at once, and the state file must still be saved.
  // A recording that cannot be written fails the stop: main's one exit point says why.
  const stopped = new Promise<void>((resolve, reject) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      // The watch first: no reload may start on a server that is closing.
      Promise.resolve(watching?.close())
        .then(() => running.close())
        .then(resolve, reject)
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
  const guarded = options.controlToken !== undefined
  const lines = serveBanner(running, options, { started, ...(watch ? { watching: named } : {}) })
  process.stdout.write(`${lines.join('\n')}\n`)
  if (!isLoopbackHost(running.host)) process.stderr.write(`${exposedWarning(running.host, guarded)}\n`)
  if (options.allowedHosts?.includes(ANY_HOST)) process.stderr.write(`${anyHostWarning(guarded)}\n`)

  await stopped
  const saved = running.recording?.lastSaved
  if (saved) process.stdout.write(`Recorded ${saved.file}:\n${saved.summary.map((line) => `  ${line}\n`).join('')}`)
}

/** `--watch` reloads this server's world from its own file: it needs one, and replicas (`--store`) must all load the same scenarios. */
function refuseWatch(named: string, flagged: Record<string, unknown>): void {
  if (!looksLikePath(named)) {
    throw new ConfigError(`--watch reloads a scenario file when it changes: give one with --scenario ./my-scenario.json ("${named}" names a built-in scenario, not a file).`)
  }
  if (flagged.store !== undefined) {
    throw new ConfigError(
      '--watch reloads the world of this server alone: not with --store, whose replicas must all load the same scenarios (restart each replica with the new file instead).',
    )
  }
}

/** One line: the control API can reset or replace the world, so say who can reach it (D27). */
function exposedWarning(host: string, guarded: boolean): string {
  const who = `multi-area-mock: warning: listening on ${host}, so other machines can reach the server, control API (${CONTROL_PREFIX}) included`
  return guarded
    ? `${who}; it requires the control token.`
    : `${who}: anyone who can connect can reset, replace or read the whole world. Set --control-token (or ${CONTROL_TOKEN_ENV}) to protect it.`
}

/** One line: `--allowed-host '*'` answers any name, so a page on a name pointed at this machine reaches the server (D27). */
function anyHostWarning(guarded: boolean): string {
  const what = `multi-area-mock: warning: --allowed-host '*' answers every host name, which turns off the defence against DNS rebinding: a web page on a name pointed at this machine can call the areas`
  return guarded
    ? `${what}; the control API (${CONTROL_PREFIX}) still requires the control token. List the names instead (--allowed-host mock.test).`
    : `${what} and the control API (${CONTROL_PREFIX}). List the names instead (--allowed-host mock.test), or set --control-token (or ${CONTROL_TOKEN_ENV}).`
}
