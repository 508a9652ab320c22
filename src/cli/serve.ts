import type { AreaId } from '../areas/registry.js'
import { isLoopbackHost } from '../node/loopback-host.js'
import { type DispatchMode, startServer } from '../node/server.js'
import { looksLikePath, readScenarioFile } from '../node/scenario-file.js'
import type { SimulatorOptions } from '../simulator/options.js'
import { CONTROL_PREFIX } from '../simulator/simulator.js'
import type { FaultRule } from '../simulator/fault-rule.js'
import type { ScenarioInput } from '../simulator/scenario-schema.js'

export interface ServeFlags {
  port: number
  host: string
  seed?: number
  clock?: string
  scenario: string
  root?: AreaId[]
  quiet?: boolean
  jwtSecret?: string
  tokenTtl?: number
  dispatch: DispatchMode
  signatureMode: 'format' | 'eip191' | 'eip712'
  /** Checked by the ledger area, which knows what a block time may be. */
  blockTime?: string
  journalSize: number
  journalBodyLimit: number
  /** Area B: ingested points kept per sensor and in all (D15 window). */
  sensorWindow: number
  ingestWindow: number
  fault?: FaultRule[]
  latency?: number | [number, number]
  maxWorlds: number
  /** Milliseconds (parsed), or the default's text. */
  worldIdle: number | string
  controlToken?: string
  headersTimeout?: number
  requestTimeout?: number
}

/** Where `--control-token` is read from when the flag is not given (keeps it out of `ps` listings). */
export const CONTROL_TOKEN_ENV = 'MULTI_AREA_MOCK_CONTROL_TOKEN'

/** See ServerOptions.dispatch; chosen by the benchmark (bench/README.md). */
export const DEFAULT_DISPATCH: DispatchMode = 'fast'

/** `multi-area-mock serve`: starts the server, prints the banner, stops cleanly on SIGINT/SIGTERM. */
export async function serve(flags: ServeFlags): Promise<void> {
  const started = performance.now()
  let scenario: string = flags.scenario
  const scenarios: Record<string, ScenarioInput> = {}
  if (looksLikePath(flags.scenario)) {
    const file = await readScenarioFile(flags.scenario)
    scenarios[file.name] = file.scenario
    scenario = file.name
  }
  const options: SimulatorOptions & { port: number; host: string } = {
    port: flags.port,
    host: flags.host,
    scenario,
    scenarios,
    root: flags.root ?? [],
    signatureMode: flags.signatureMode,
    journal: { size: flags.journalSize, bodyLimit: flags.journalBodyLimit },
    ingestion: { sensorWindow: flags.sensorWindow, window: flags.ingestWindow },
    // --latency first: it adds to every request, whatever the other rules do.
    faults: [...(flags.latency === undefined ? [] : [{ latency: flags.latency }]), ...(flags.fault ?? [])],
    worlds: { max: flags.maxWorlds, idle: flags.worldIdle },
  }
  if (flags.seed !== undefined) options.seed = flags.seed
  if (flags.clock !== undefined) options.clock = flags.clock
  if (flags.jwtSecret !== undefined || flags.tokenTtl !== undefined) {
    options.auth = {
      ...(flags.jwtSecret !== undefined ? { secret: flags.jwtSecret } : {}),
      ...(flags.tokenTtl !== undefined ? { expiresIn: flags.tokenTtl } : {}),
    }
  }
  if (flags.blockTime !== undefined) options.blockTime = flags.blockTime
  const running = await startServer({
    ...options,
    dispatch: flags.dispatch,
    ...(flags.headersTimeout !== undefined ? { headersTimeout: flags.headersTimeout } : {}),
    ...(flags.requestTimeout !== undefined ? { requestTimeout: flags.requestTimeout } : {}),
    ...(flags.controlToken !== undefined ? { controlToken: flags.controlToken } : {}),
    ...(flags.quiet ? {} : { log: (line: string) => process.stdout.write(`${line}\n`) }),
  })
  const sim = running.simulator
  const lines = [
    `multi-area-mock listening on ${running.url} (scenario "${sim.scenario}", seed ${sim.seed}, clock ${sim.clockFixed ? sim.now() : 'system'}, ready in ${Math.round(performance.now() - started)} ms)`,
    ...sim.areas.map((area) => `  ${area.letter}  ${area.title.padEnd(40)} ${area.baseUrls.map((base) => `${running.url}${base === '/' ? '/' : base}`).join('  ')}`),
    `     ${(flags.controlToken === undefined ? 'Control API' : 'Control API (Bearer token required)').padEnd(40)} ${running.url}${CONTROL_PREFIX}`,
  ]
  const faults = sim.faults.list().length
  if (faults > 0) lines.push(`     ${`${faults} fault rule${faults === 1 ? '' : 's'} in force`.padEnd(40)} ${running.url}${CONTROL_PREFIX}/faults`)
  process.stdout.write(`${lines.join('\n')}\n`)
  if (!isLoopbackHost(running.host)) process.stderr.write(`${exposedWarning(running.host, flags.controlToken !== undefined)}\n`)

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      void running.close().then(resolve)
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}

/** One line: the control API can reset or replace the world, so say who can reach it (D27). */
function exposedWarning(host: string, guarded: boolean): string {
  const who = `multi-area-mock: warning: listening on ${host}, so other machines can reach the server, control API (${CONTROL_PREFIX}) included`
  return guarded
    ? `${who}; it requires the control token.`
    : `${who}: anyone who can connect can reset, replace or read the whole world. Set --control-token (or ${CONTROL_TOKEN_ENV}) to protect it.`
}
