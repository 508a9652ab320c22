import { isIP } from 'node:net'
import { networkInterfaces } from 'node:os'
import type { AreaId } from '../areas/registry.js'
import type { ReplayedBundle } from '../node/replay/server-replay.js'
import type { RunningServer } from '../node/server/server.js'
import type { ServerOptions } from '../node/server/server-options.js'
import { CONTROL_PREFIX } from '../simulator/simulator.js'
import { ANY_ORIGIN } from '../node/gate/cors.js'
import { ANY_HOST } from '../node/gate/host-policy.js'
import { isLoopbackHost } from '../node/gate/loopback-host.js'
import { envOf } from './env-options.js'
import { inspectorBanner } from './inspector-banner.js'

/** Hosts that mean every interface of the machine: no URL reaches the server at them from another machine, nor always from this one. */
const EVERY_INTERFACE: ReadonlySet<string> = new Set(['0.0.0.0', '::', '::0', '0:0:0:0:0:0:0:0'])

/** What the banner says besides the running server. */
export interface BannerFacts {
  /** `performance.now()` when `serve` began. */
  started: number
  /** The scenario file reloaded on change (`--watch`), as the command line named it. */
  watching?: string
}

/**
 * The lines `serve` prints once listening: where it listens (an address this
 * machine reaches, also when it is bound to every interface), each area's
 * URLs, the control API, the inspector, then what the flags added.
 *
 * @example
 * process.stdout.write(`${serveBanner(running, options, { started }).join('\n')}\n`)
 */
export function serveBanner(running: RunningServer, options: ServerOptions, facts: BannerFacts): string[] {
  const sim = running.simulator
  const url = reachableUrl(running)
  const guarded = options.controlToken !== undefined
  const lines = [
    `multi-area-mock listening on ${url} (scenario "${sim.scenario}", seed ${sim.seed}, clock ${sim.clockFixed ? sim.now() : 'system'}, ready in ${Math.round(performance.now() - facts.started)} ms)`,
    ...sim.areas.map(
      (area) => `  ${area.letter}  ${area.title.padEnd(40)} ${area.baseUrls.map((base) => `${url}${base === '/' ? '/' : base}`).join('  ')}${proxiedTo(options, area.id)}`,
    ),
    `     ${(guarded ? 'Control API (Bearer token required)' : 'Control API').padEnd(40)} ${url}${CONTROL_PREFIX}`,
    ...inspectorBanner({ ...running, url }),
  ]
  if (EVERY_INTERFACE.has(running.host)) lines.push(everyInterfaceLine(running))
  if (!isLoopbackHost(running.host)) lines.push(...reachLines(running.host, options))
  if (facts.watching !== undefined) lines.push(`     ${'Scenario file, reloaded on change'.padEnd(40)} ${facts.watching}`)
  if (running.replayed) lines.push(replayedLine(running.replayed))
  if (running.recording) lines.push(`     ${'Recording proxied answers to'.padEnd(40)} ${running.recording.file} (POST ${CONTROL_PREFIX}/recording/save writes it now)`)
  const faults = sim.faults.list().length
  if (faults > 0) lines.push(`     ${`${faults} fault rule${faults === 1 ? '' : 's'} in force`.padEnd(40)} ${url}${CONTROL_PREFIX}/faults`)
  return lines
}

/**
 * The server's URL as this machine reaches it: `http://127.0.0.1:4000` for a
 * server bound to every interface (`0.0.0.0`, `::`), whose own address is no
 * place to connect to; else the URL it listens on.
 *
 * @example
 * reachableUrl({ url: 'http://0.0.0.0:4000', host: '0.0.0.0', port: 4000 }) // 'http://127.0.0.1:4000'
 */
export function reachableUrl(running: { url: string; host: string; port: number }): string {
  return EVERY_INTERFACE.has(running.host) ? `http://127.0.0.1:${running.port}` : running.url
}

/** A server on every interface: the machine's other IPv4 addresses, where other machines may reach it. */
function everyInterfaceLine(running: RunningServer): string {
  const addresses = Object.values(networkInterfaces())
    .flat()
    .filter((address) => address !== undefined && address.family === 'IPv4' && !address.internal)
    .map((address) => `http://${address!.address}:${running.port}`)
  return `     ${`Also on every interface (${running.host})`.padEnd(40)} ${addresses.length > 0 ? addresses.join('  ') : '(this machine has no other IPv4 address)'}`
}

/**
 * A server other machines reach (in a container, on `0.0.0.0`): which `Host`
 * names and page origins it answers, and the flag that adds one. A compose
 * service or a Kubernetes Service is called by its name, which the host
 * policy refuses until it is listed (D27).
 */
function reachLines(host: string, options: ServerOptions): string[] {
  const hosts = options.allowedHosts ?? []
  const origins = options.corsOrigins ?? []
  const names = hosts.includes(ANY_HOST) ? ['every name (--allowed-host *)'] : ['localhost', 'IP addresses', ...(isIP(host) === 0 ? [host] : []), ...hosts]
  const pages = origins.includes(ANY_ORIGIN) ? ['every origin (--cors-origin *)'] : ['http://localhost:*', 'http://127.0.0.1:*', ...origins]
  return [
    `     ${'Answers requests for the hosts'.padEnd(40)} ${names.join(', ')}; a compose or Kubernetes service name needs --allowed-host <name> (${envOf('--allowed-host')})`,
    `     ${'Answers pages from the origins'.padEnd(40)} ${pages.join(', ')}; an app served elsewhere needs --cors-origin <origin> (${envOf('--cors-origin')})`,
  ]
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
