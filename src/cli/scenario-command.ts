import { basename } from 'node:path'
import { type Command, InvalidArgumentError, Option } from 'commander'
import { AREA_IDS, ALL_AREAS, type AreaId } from '../areas/registry.js'
import { ConfigError } from '../kernel/errors/config-error.js'
import type { Dispatcher } from '../kernel/routing/dispatcher.js'
import { fieldsOf } from '../kernel/options/option-fields.js'
import { type HarBase, type HarEntry, harAnswer, harBases, parseHarBase, readHarFile, simulatorUrl } from '../node/recording/har-file.js'
import { resolveUserPath } from '../node/files/file-safety.js'
import { replaceFile } from '../node/files/safe-replace.js'
import { looksLikePath, readScenarioFile } from '../node/files/scenario-file.js'
import { builtinScenarios, DEFAULT_SCENARIO } from '../simulator/state/builtin-scenarios.js'
import { createSimulator } from '../simulator/create-simulator.js'
import { engineOf } from '../simulator/engine.js'
import { simulatorOptionsSchema } from '../simulator/options.js'
import { recorderFor, recordingSummaryLines } from '../simulator/recording/recorder-setup.js'
import { lookupScenario } from '../simulator/state/scenario-lookup.js'
import type { ScenarioInput } from '../simulator/state/scenario-schema.js'
import { flagOption } from './options.js'

interface FromHarFlags {
  base?: string[]
  scenario: string
  seed?: number
  out?: string
}

/** Entries of no area named in the summary line. */
const IGNORED_SHOWN = 3

/**
 * Adds `multi-area-mock scenario from-har <file.har>` (issue 34): a HAR export
 * of real traffic made into a scenario, as `serve --record` makes one.
 *
 * @example
 * addScenarioCommand(program) // multi-area-mock scenario from-har session.har --out recorded.json
 */
export function addScenarioCommand(program: Command): void {
  const scenario = program.command('scenario').description('Make scenarios from real traffic: `scenario from-har <file.har>`.')
  const seed = fieldsOf(simulatorOptionsSchema).find((field) => field.path.join('.') === 'seed')!
  scenario
    .command('from-har')
    .summary('Print the scenario a HAR file of real traffic shows (what `serve --record` writes).')
    .description(
      'Print the scenario a HAR 1.2 file (a browser devtools export, Playwright recordHar, mitmproxy, Charles) shows: the records its answers show, for the areas it has entries of; loaded with `serve --scenario <file>`, the simulator answers those reads as the backend did.',
    )
    .argument('<file.har>', 'the HAR file (at most 256 MiB)')
    .addOption(
      new Option(
        '--base <url|area=url>',
        "where the areas were (repeatable): <url> a mount point whose path is removed (…/backend/admin/… is Area A), <area>=<url> an area's real backend (its paths are the area's routes without the prefix)",
      ).argParser(collectBase),
    )
    .addOption(
      new Option('--scenario <name|path>', 'built-in scenario name or path to a scenario JSON file, kept for the areas the HAR file does not show').default(DEFAULT_SCENARIO),
    )
    .addOption(flagOption({ ...seed, meta: { cli: { ...seed.meta.cli!, description: "the recorded scenario's seed (default: the --scenario's)" } } }))
    .addOption(new Option('-o, --out <file>', 'write the scenario to <file> instead of stdout'))
    .addHelpText(
      'after',
      `
Entries are matched to areas by path, whatever the host: a path under
${ALL_AREAS.map((area) => area.prefix).join(', ')} is that area's.
Other entries (pages, assets, other hosts) are ignored and counted.
The areas with entries are recorded; the others keep --scenario's part.
A summary per area goes to stderr.

Examples:
  $ multi-area-mock scenario from-har session.har > recorded.json
  $ multi-area-mock scenario from-har session.har --out recorded.json --seed 42
  $ multi-area-mock scenario from-har staging.har --base https://staging.example.com/backend
  $ multi-area-mock scenario from-har users.har --base admin=https://users.example.com/api --scenario empty
  $ multi-area-mock serve --scenario recorded.json`,
    )
    .action(scenarioFromHar)
}

async function scenarioFromHar(file: string, flags: FromHarFlags): Promise<void> {
  const bases = harBases(flags.base ?? [])
  // Checked before the work: a link at --out another user made is refused at once.
  const out = flags.out === undefined ? undefined : await resolveUserPath(flags.out, 'output file')
  const base = await baseScenario(flags.scenario)
  const har = await readHarFile(file)
  // Only its route table is used: the world it seeds stays empty.
  const sim = engineOf(createSimulator({ scenario: 'empty' }))
  await sim.ready
  const taken: Array<{ entry: HarEntry; url: string }> = []
  const areas = new Set<AreaId>()
  const ignored = { count: 0, examples: [] as string[] }
  for (const entry of har.log.entries) {
    const area = areaOf(entry, bases, sim.dispatcher)
    if (area === undefined) {
      if (ignored.count++ < IGNORED_SHOWN) ignored.examples.push(describeIgnored(entry))
      continue
    }
    areas.add(area.id)
    taken.push({ entry, url: area.url })
  }
  const total = har.log.entries.length
  if (taken.length === 0) {
    throw new ConfigError(
      `No entry of ${file} (${total} in all) is an area's (paths under ${ALL_AREAS.map((area) => area.prefix).join(', ')}); a backend mounted elsewhere needs --base <url> or --base <area>=<url>.`,
    )
  }
  const creator = har.log.creator ? ` by ${[har.log.creator.name, har.log.creator.version].filter(Boolean).join(' ')}` : ''
  const recorder = recorderFor({
    dispatcher: sim.dispatcher,
    areas: [...areas],
    scenario: base,
    seed: flags.seed,
    description: `Recorded from ${basename(file)} (a HAR file${creator}, ${taken.length} of ${total} entries) with multi-area-mock scenario from-har.`,
  })
  for (const { entry, url } of taken) recorder.record(harAnswer(entry, url))
  const text = `${JSON.stringify(recorder.scenario(), null, 2)}\n`
  if (flags.out === undefined || out === undefined) process.stdout.write(text)
  else await writeScenario(flags.out, out, text)
  const lines = recordingSummaryLines(recorder.summary())
  lines.push(ignoredLine(ignored, total))
  process.stderr.write(`${lines.join('\n')}\n`)
}

/** The area an entry is of, and its URL at the simulator; `undefined` for an entry to ignore. */
function areaOf(entry: HarEntry, bases: readonly HarBase[], dispatcher: Dispatcher): { id: AreaId; url: string } | undefined {
  // No answer (0 from devtools, -1 from Playwright): nothing to record.
  if (entry.response.status < 100) return undefined
  const method = entry.request.method.toUpperCase()
  // A CORS preflight or a HEAD shows nothing of the records.
  if (method === 'OPTIONS' || method === 'HEAD') return undefined
  const url = simulatorUrl(entry.request.url, bases)
  if (url === undefined) return undefined
  const area = dispatcher.dispatch({ method, url })?.mount?.area
  return area !== undefined && (AREA_IDS as readonly string[]).includes(area) ? { id: area as AreaId, url } : undefined
}

/** `--scenario`: a file's document, or a built-in's name (checked here, so a typo is one line naming the choices). */
async function baseScenario(named: string): Promise<ScenarioInput | string> {
  if (looksLikePath(named)) return (await readScenarioFile(named)).scenario
  if (lookupScenario(builtinScenarios, named) === undefined) {
    throw new ConfigError(`Unknown scenario "${named}": the built-in ones are ${Object.keys(builtinScenarios).join(', ')}; a file needs a path (./${named}.json).`)
  }
  return named
}

/** An ignored entry in the summary: method, URL without its query (which may hold a token) and status. */
function describeIgnored(entry: HarEntry): string {
  let where = entry.request.url
  try {
    const url = new URL(entry.request.url)
    where = /^https?:$/.test(url.protocol) ? `${url.origin}${url.pathname}` : `${url.protocol}…`
  } catch {
    where = where.slice(0, 40)
  }
  return `${entry.request.method.toUpperCase()} ${where} (${entry.response.status < 100 ? 'no answer' : entry.response.status})`
}

function ignoredLine(ignored: { count: number; examples: readonly string[] }, total: number): string {
  const more = ignored.count > ignored.examples.length ? ` and ${ignored.count - ignored.examples.length} more` : ''
  const shown = ignored.examples.length > 0 ? `: ${ignored.examples.join('; ')}${more}` : ''
  return `ignored: ${ignored.count} of ${total} entries (of no area: pages, assets, other hosts, preflights, no answer)${shown}`
}

/** The scenario written whole or not at all (a file that may hold users' data: owner-only) to `target`, `out` resolved. */
async function writeScenario(out: string, target: string, text: string): Promise<void> {
  try {
    await replaceFile(target, (handle) => handle.writeFile(text))
  } catch (error) {
    if (error instanceof ConfigError) throw error
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : String(code ?? error)
    throw new ConfigError(`Cannot write ${out}: ${why}.`)
  }
}

function collectBase(value: string, previous: string[] = []): string[] {
  try {
    parseHarBase(value)
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error))
  }
  return [...previous, value]
}
