import { ALL_AREAS } from '../../areas/registry.js'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { fieldsOf } from '../../kernel/options/option-fields.js'
import { parseOptions } from '../../kernel/options/parse-options.js'
import { builtinScenarios, DEFAULT_SCENARIO } from '../../simulator/state/builtin-scenarios.js'
import { type CheckedOptions, type SimulatorOptions, simulatorOptionsSchema } from '../../simulator/options.js'
import type { ScenarioInput } from '../../simulator/state/scenario-schema.js'
import { resolveScenario } from '../../simulator/state/chosen-scenario.js'
import { describeRecords, formatCount, scenarioRecords, totalRecords } from '../../simulator/worlds/world-records.js'

/**
 * The simulator options that bound what a world may cost (records, worlds,
 * bytes, journal entries, kept points). A bundle declares its own, and they
 * shape its answers, so a replay uses them; but the replaying server's own
 * (the flags given, else the defaults) are the most a bundle may declare: a
 * bundle is input, not trust (a 2 KB file asking for `maxRecords: 1e9`).
 */
const REPLAY_LIMITS: ReadonlyArray<readonly [string, string]> = [
  ['worlds', 'maxRecords'],
  ['worlds', 'maxTotalRecords'],
  ['worlds', 'max'],
  ['limits', 'bodyBytes'],
  ['limits', 'ingestPoints'],
  ['journal', 'size'],
  ['journal', 'bodyLimit'],
  ['ingestion', 'sensorWindow'],
  ['ingestion', 'window'],
]

/**
 * `options` without the limits a replay takes as the most a bundle may ask
 * for (`--max-world-records`, `--body-limit`…): given with `--replay`, they
 * are no world option to refuse.
 *
 * @example
 * withoutReplayLimits({ seed: 3, worlds: { maxRecords: 5 } }) // { seed: 3 }
 */
export function withoutReplayLimits(options: Record<string, unknown>): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...options }
  for (const group of new Set(REPLAY_LIMITS.map(([group]) => group))) {
    const given = rest[group]
    if (given === null || typeof given !== 'object') continue
    const kept = Object.fromEntries(Object.entries(given).filter(([key, value]) => value !== undefined && !REPLAY_LIMITS.some(([g, k]) => g === group && k === key)))
    if (Object.keys(kept).length === 0) delete rest[group]
    else rest[group] = kept
  }
  return rest
}

/**
 * Refuses, in one line naming `file`, a bundle that asks for more than the
 * replaying server allows (`given`: its options; defaults where none is
 * given): a limit above the server's, or a world its own scenarios would seed
 * with more records than the server allows one world (the bundle's world is
 * input like an isolated world's, so `--max-world-records` holds for it too).
 * Each part over names the flag that allows it.
 *
 * @example
 * checkReplayLimits('mock-world.json', bundle.options, { port: 0 }) // throws ConfigError
 */
export function checkReplayLimits(file: string, bundleOptions: SimulatorOptions, given: Record<string, unknown>): void {
  const asked = parseOptions(simulatorOptionsSchema, bundleOptions)
  const allowed = parseOptions(simulatorOptionsSchema, limitsOf(given))
  const flags = new Map(fieldsOf(simulatorOptionsSchema).map((field) => [field.path.join('.'), field.meta.cli?.flag]))
  const over = REPLAY_LIMITS.flatMap((path) => {
    const [mine, theirs] = [valueAt(allowed, path), valueAt(asked, path)]
    if (typeof mine !== 'number' || typeof theirs !== 'number' || theirs <= mine) return []
    const flag = flags.get(path.join('.'))
    return [`${path.join('.')} ${formatCount(theirs)} (this server: ${formatCount(mine)}; ${flag === undefined ? 'in-process only' : longFlag(flag)})`]
  })
  if (over.length > 0) {
    throw new ConfigError(
      `The bundle ${file} asks for more than this server allows: ${over.join('; ')}. Give ${over.length === 1 ? 'that flag' : 'those flags'} to replay it, if you trust the file.`,
    )
  }
  const most = allowed.worlds.maxRecords
  const seeded = largestSeeding(asked)
  if (seeded !== undefined && seeded.records > most) {
    throw new ConfigError(
      `The bundle ${file} seeds its world with ${formatCount(seeded.records)} records (scenario "${seeded.name}": ${seeded.described}), past the ${formatCount(most)} this server allows one world (--max-world-records). Give that flag to replay it, if you trust the file.`,
    )
  }
}

/**
 * The largest of the scenarios a replayed world may be seeded with: the one
 * it starts with, and any it registers (a command may load one by name);
 * the built-ins are known and small. Counted before anything is generated.
 */
function largestSeeding(options: CheckedOptions): { name: string; records: number; described: string } | undefined {
  const scenarios: Record<string, ScenarioInput> = { ...builtinScenarios, ...options.scenarios }
  const mounted =
    options.areas === undefined ? undefined : new Set(ALL_AREAS.filter((area) => options.areas!.includes(area.id)).flatMap((area) => (area.section ? [area.section.key] : [])))
  let largest: { name: string; records: number; described: string } | undefined
  for (const candidate of [options.scenario ?? DEFAULT_SCENARIO, ...Object.keys(options.scenarios ?? {})]) {
    const { name, scenario } = resolveScenario(scenarios, candidate)
    const counts = scenarioRecords(scenario, mounted)
    const records = totalRecords(counts)
    if (largest === undefined || records > largest.records) largest = { name, records, described: describeRecords(counts) }
  }
  return largest
}

/** The limit options among `given`, as an options object (the rest left out: they are not parsed here). */
function limitsOf(given: Record<string, unknown>): Record<string, unknown> {
  const limits: Record<string, Record<string, unknown>> = {}
  for (const [group, key] of REPLAY_LIMITS) {
    const value = valueAt(given, [group, key])
    if (value !== undefined) limits[group] = { ...limits[group], [key]: value }
  }
  return limits
}

function valueAt(options: unknown, path: readonly string[]): unknown {
  let value: unknown = options
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
  return value
}

/** `--max-world-records` of `--max-world-records <n>`. */
function longFlag(flag: string): string {
  return /--[a-z0-9-]+/.exec(flag)?.[0] ?? flag
}
