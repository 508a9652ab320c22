import { ConfigError } from '../../kernel/errors/config-error.js'
import { bundleStart } from './bundle-start.js'
import { isCommand } from '../log/command.js'
import type { SimulatorEngine } from '../engine.js'
import type { WorldSnapshot } from '../state/state-lifecycle.js'
import { BUNDLE_STATE_DEPTH } from './bundle-take.js'
import { digestOfJson } from './json-digest.js'
import { BUNDLE_VERSION, type WorldBundle } from './world-bundle.js'

/** What a replay did. */
export interface ReplayOutcome {
  /** Commands applied (all of them, or those before `--replay-until`). */
  applied: number
  /** Whether the world is the bundle's, byte for byte (only known for a whole replay). */
  identical: boolean | undefined
}

/**
 * Rebuilds a bundle's world as the default world of `sim` (issue 35): the
 * world as it stood before the first kept command, then its commands in order
 * (those before number `until`, counting from 1, when given), each with the
 * clock where it was accepted. The world's clock then stands still where the
 * world's stood: when the bundle was taken, or when command `until` arrived.
 * A bundle of another package version is replayed whole first and refused
 * (`ConfigError`) unless it gives the same world; so is one that does not.
 * A bundle is input, not trust (a file from a fork's CI, say): before anything
 * is applied, its `start` is checked as `PUT /__mock/state` checks a state
 * document (`bundleStart`), and each command must be a write of this
 * simulator's routes (a read, or a path no route has, was never kept); a
 * refusal is one `ConfigError` line beginning with `label`.
 *
 * @example
 * await replayBundle(engineOf(sim), bundle, 12) // the world just before its 12th command
 */
export async function replayBundle(sim: SimulatorEngine, bundle: WorldBundle, until?: number, label = 'The bundle'): Promise<ReplayOutcome> {
  if (until !== undefined && (!Number.isInteger(until) || until < 1 || until > bundle.commands.length + 1))
    throw new ConfigError(`--replay-until must be a command number from 1 to ${bundle.commands.length + 1} (the bundle holds ${bundle.commands.length} commands).`)
  await sim.ready
  const start = bundleStart(bundle.start, label)
  bundle.commands.forEach((command, index) => {
    if (!isWrite(sim, command)) {
      throw new ConfigError(
        `${label} holds a command that is no write of this server: command ${index + 1}, ${command.method} ${pathOf(command.url)} (a bundle only holds the writes a world was changed by).`,
      )
    }
  })
  const checked = { ...bundle, start: start as unknown as WorldBundle['start'] }
  const whole = await applyCommands(sim, checked, bundle.commands.length, label)
  const state = digestOfJson(sim.exportState(), BUNDLE_STATE_DEPTH)
  const identical = state.sha256 === bundle.state.sha256
  if (!identical) {
    const other = bundle.version === BUNDLE_VERSION ? '' : ` (it was taken with multi-area-mock ${bundle.version}; this is ${BUNDLE_VERSION})`
    throw new ConfigError(
      `The bundle does not replay to the world it was taken of${other}: its state digest is ${bundle.state.sha256.slice(0, 12)}…, the replay gives ${state.sha256.slice(0, 12)}…`,
    )
  }
  if (until === undefined || until > bundle.commands.length) {
    await standStill(sim, Date.parse(bundle.takenAt))
    return { applied: whole, identical }
  }
  const applied = await applyCommands(sim, checked, until - 1, label)
  const next = bundle.commands[until - 1]!
  // The world's clock as it read when command `until` arrived.
  await standStill(sim, await sim.family.time.during(next.at, async () => sim.clock.nowMs()))
  return { applied, identical: undefined }
}

/** Puts the bundle's start (checked) back, then applies its first `count` commands to the default world. */
async function applyCommands(sim: SimulatorEngine, bundle: WorldBundle, count: number, label: string): Promise<number> {
  const { log } = sim.family
  try {
    await log.serial(() => log.remotely(() => sim.lifecycle.restore(bundle.start as unknown as WorldSnapshot)))
  } catch (error) {
    // What the schema cannot see and the import checks (as it does for PUT /__mock/state): one line all the same.
    if (error instanceof ConfigError) throw error
    const reason = String((error as Error).message ?? error).split('\n')[0]
    throw new ConfigError(`${label} has a start that is no world this server takes (as PUT /__mock/state checks it): ${reason}`)
  }
  log.history?.clear()
  for (const command of bundle.commands.slice(0, count)) await log.replay({ ...command, world: null })
  return count
}

async function standStill(sim: SimulatorEngine, at: number): Promise<void> {
  await sim.family.log.serial(async () => {
    sim.clock.freeze()
    sim.clock.set(new Date(at).toISOString())
  })
}

/** Whether a kept command is a write of this simulator's routes, as only writes become commands (`isCommand`). */
function isWrite(sim: SimulatorEngine, command: WorldBundle['commands'][number]): boolean {
  try {
    const dispatch = sim.dispatcher.dispatch({ method: command.method, url: command.url })
    return dispatch !== undefined && isCommand(dispatch)
  } catch {
    return false
  }
}

/** A command's path, as messages name it (a URL that is none, cut short). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return JSON.stringify(url.slice(0, 60))
  }
}
