import { resolve } from 'node:path'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { fieldsOf } from '../../kernel/options/option-fields.js'
import { replayBundle } from '../../simulator/history/bundle-replay.js'
import { engineOf } from '../../simulator/engine.js'
import { type SimulatorOptions, simulatorOptionsSchema } from '../../simulator/options.js'
import type { Simulator } from '../../simulator/simulator.js'
import type { WorldBundle } from '../../simulator/history/world-bundle.js'
import { readBundleFile } from './bundle-file.js'
import { checkReplayLimits, withoutReplayLimits } from './replay-limits.js'

/**
 * A bundle a server was started from (`replay`): what the banner says of it.
 *
 * @example
 * const { replayed } = await startServer({ port: 0, replay: 'mock-world.json' })
 * replayed?.applied // 12
 */
export interface ReplayedBundle {
  /** Absolute path of the bundle file. */
  readonly file: string
  /** The isolated world it was taken of (`null`: the default world); replayed as the default world. */
  readonly world: string | null
  /** The package version that took it. */
  readonly version: string
  /** The world's clock when it was taken. */
  readonly takenAt: string
  /** Commands the bundle holds. */
  readonly commands: number
  /** Commands applied: all of them, or those before `until`. */
  readonly applied: number
  /** `replayUntil`: the command the replay stopped before; `null` for a whole replay. */
  readonly until: number | null
}

/**
 * A bundle read, and the simulator options it makes.
 *
 * @example
 * const { bundle, options } = await planReplay('mock-world.json', {})
 */
export interface ReplayPlan {
  readonly file: string
  readonly bundle: WorldBundle
  readonly options: SimulatorOptions
}

/** Simulator options a replay takes from the server's own: never in a bundle, and none of them changes the world. */
const KEPT = new Set(['onInternalError'])

/**
 * The options that shape the world given besides a bundle, as the command line
 * names them (`--seed`; an option without a flag by its name, `scenario`):
 * a replay refuses them, since the world comes from the bundle's own.
 * Secret ones (`--jwt-secret`, often set in the environment) are not among
 * them: a bundle never holds a secret, so a replay takes it from the server.
 * Nor are the limits (`--max-world-records`, `--body-limit`…): with a replay
 * they are the most the bundle may ask for (`replay-limits.ts`).
 *
 * @example
 * worldOptionsGiven({ seed: 3, port: 0 }) // ['--seed']
 */
export function worldOptionsGiven(given: Record<string, unknown>): string[] {
  const options = withoutReplayLimits(given)
  const fields = fieldsOf(simulatorOptionsSchema)
  return Object.keys(simulatorOptionsSchema.shape).flatMap((key) => {
    if (KEPT.has(key) || options[key] === undefined) return []
    const flagged = fields.filter((field) => field.path[0] === key && field.meta.cli !== undefined && valueAt(options, field.path) !== undefined)
    if (flagged.length === 0) return [key]
    return flagged.filter((field) => !field.meta.secret).map((field) => longFlag(field.meta.cli!.flag))
  })
}

/**
 * Reads a bundle file for a server to start from (`serve --replay`): the
 * simulator is made from the bundle's options, with only the secret ones
 * given (`auth.secret`) added (the server adds its `onInternalError`); any
 * other simulator option given is refused with one line naming them, but the
 * limits given are the most the bundle may ask for (a bundle asking for more,
 * or seeding more records than one world may hold, is refused in one line).
 *
 * @example
 * const plan = await planReplay('mock-world.json', { port: 0 })
 * const sim = createSimulator(plan.options)
 */
export async function planReplay(path: string, given: Record<string, unknown>): Promise<ReplayPlan> {
  refuseWorldOptions(worldOptionsGiven(given))
  const file = resolve(path)
  const bundle = await readBundleFile(file)
  checkReplayLimits(file, bundle.options as SimulatorOptions, given)
  const secret = (given.auth as { secret?: string } | undefined)?.secret
  const options: SimulatorOptions = {
    ...(bundle.options as SimulatorOptions),
    ...(secret === undefined ? {} : { auth: { ...(bundle.options.auth as object | undefined), secret } }),
  }
  return { file, bundle, options }
}

/**
 * Throws the one-line refusal of world options given with a bundle, if any.
 *
 * @example
 * refuseWorldOptions(['--seed', '--scenario']) // throws ConfigError
 */
export function refuseWorldOptions(given: readonly string[]): void {
  if (given.length === 0) return
  throw new ConfigError(
    `--replay rebuilds the world from the bundle's own options (seed, clock, scenario, areas, limits…): leave out ${given.join(', ')} (only the server's own options and --jwt-secret may be given with it).`,
  )
}

/**
 * Rebuilds the plan's world as the simulator's default world (`replayBundle`):
 * all of its commands, or those before `until`; refused with a `ConfigError`
 * when it does not give the bundle's world (another package version, a
 * changed file).
 *
 * @example
 * const replayed = await applyReplay(simulator, plan, 2) // the world before its 2nd command
 */
export async function applyReplay(simulator: Simulator, plan: ReplayPlan, until: number | undefined): Promise<ReplayedBundle> {
  const { applied } = await replayBundle(engineOf(simulator), plan.bundle, until, `The bundle ${plan.file}`)
  const { bundle } = plan
  const stopped = until !== undefined && until <= bundle.commands.length
  return { file: plan.file, world: bundle.world, version: bundle.version, takenAt: bundle.takenAt, commands: bundle.commands.length, applied, until: stopped ? until : null }
}

/** `--seed` of `-s, --seed <n>`. */
function longFlag(flag: string): string {
  return /--[a-z0-9-]+/.exec(flag)?.[0] ?? flag
}

function valueAt(options: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = options
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
  return value
}
