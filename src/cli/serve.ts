import type { AreaId } from '../areas/registry.js'
import { ANY_HOST } from '../node/gate/host-policy.js'
import { isLoopbackHost } from '../node/gate/loopback-host.js'
import { looksLikePath, readScenarioFile } from '../node/files/scenario-file.js'
import { startServer } from '../node/server/server.js'
import { CONTROL_TOKEN_ENV, type ServerOptions } from '../node/server/server-options.js'
import type { FaultRule } from '../simulator/faults/fault-rule.js'
import type { ScenarioInput } from '../simulator/state/scenario-schema.js'
import { inspectorBanner } from './inspector-banner.js'
import { CONTROL_PREFIX } from '../simulator/simulator.js'
import { type Flag, optionsFromFlags } from './options.js'
import { DEFAULT_SCENARIO } from '../simulator/state/builtin-scenarios.js'
import { refuseWorldOptions, worldOptionsGiven, type ReplayedBundle } from '../node/replay/server-replay.js'

/** What `serve` reads besides the options' own flags. */
interface ServeOnlyFlags {
  scenario: string
  quiet?: boolean
  fault?: FaultRule[]
  latency?: number | [number, number]
  /** `--proxy area=url` (repeatable): checked by `startServer` (src/node/proxy/proxy-targets.ts). */
  proxy?: Partial<Record<AreaId, string>>
}

/** `multi-area-mock serve`: starts the server, prints the banner, stops cleanly on SIGINT/SIGTERM. */
export async function serve(values: Record<string, unknown>, flags: readonly Flag[]): Promise<void> {
  const started = performance.now()
  const { scenario: named, quiet, fault, latency, proxy } = values as unknown as ServeOnlyFlags
  const flagged = optionsFromFlags(values, flags)
  const replaying = flagged.replay !== undefined
  // The bundle's world, exactly: a flag that would change it is refused, not silently ignored.
  // (`--scenario default` cannot be told from no flag: it is the bundle's scenario that loads.)
  if (replaying) {
    const own = [...(named === DEFAULT_SCENARIO ? [] : ['--scenario']), ...(fault === undefined ? [] : ['--fault']), ...(latency === undefined ? [] : ['--latency'])]
    refuseWorldOptions([...own, ...worldOptionsGiven(flagged)])
  }
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
  // Listening for the signals before the banner: whoever reads the banner may stop us at once, and the state file must still be saved.
  // A recording that cannot be written fails the stop: main's one exit point says why.
  const stopped = new Promise<void>((resolve, reject) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      running.close().then(resolve, reject)
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
  const sim = running.simulator
  const guarded = options.controlToken !== undefined
  const lines = [
    `multi-area-mock listening on ${running.url} (scenario "${sim.scenario}", seed ${sim.seed}, clock ${sim.clockFixed ? sim.now() : 'system'}, ready in ${Math.round(performance.now() - started)} ms)`,
    ...sim.areas.map(
      (area) => `  ${area.letter}  ${area.title.padEnd(40)} ${area.baseUrls.map((base) => `${running.url}${base === '/' ? '/' : base}`).join('  ')}${proxiedTo(options, area.id)}`,
    ),
    `     ${(guarded ? 'Control API (Bearer token required)' : 'Control API').padEnd(40)} ${running.url}${CONTROL_PREFIX}`,
  ]
  lines.push(...inspectorBanner(running))
  if (running.replayed) lines.push(replayedLine(running.replayed))
  if (running.recording) lines.push(`     ${'Recording proxied answers to'.padEnd(40)} ${running.recording.file} (POST ${CONTROL_PREFIX}/recording/save writes it now)`)
  const faults = sim.faults.list().length
  if (faults > 0) lines.push(`     ${`${faults} fault rule${faults === 1 ? '' : 's'} in force`.padEnd(40)} ${running.url}${CONTROL_PREFIX}/faults`)
  process.stdout.write(`${lines.join('\n')}\n`)
  if (!isLoopbackHost(running.host)) process.stderr.write(`${exposedWarning(running.host, guarded)}\n`)
  if (options.allowedHosts?.includes(ANY_HOST)) process.stderr.write(`${anyHostWarning(guarded)}\n`)

  await stopped
  const saved = running.recording?.lastSaved
  if (saved) process.stdout.write(`Recorded ${saved.file}:\n${saved.summary.map((line) => `  ${line}\n`).join('')}`)
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

/** The banner's line on a replayed bundle: what was applied, of which world, taken when and with which version. */
function replayedLine(replayed: ReplayedBundle): string {
  const { file, commands, applied, until, world, takenAt, version } = replayed
  const count = `${commands} command${commands === 1 ? '' : 's'}`
  const what = until === null ? count : `${applied} of ${count}, stopped before command ${until}`
  return `Replayed ${file}: ${what} (world ${world ?? 'default'}, taken ${takenAt} with multi-area-mock ${version})`
}

/** The banner's note on a proxied area: where its requests go. */
function proxiedTo(options: ServerOptions, area: AreaId): string {
  const url = options.proxy?.[area]
  return url === undefined ? '' : `  -> proxied to ${url}`
}
