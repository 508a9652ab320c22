import { Command, Option } from 'commander'
import { ALL_AREAS, areaFromText, areaIdSchema } from '../areas/registry.js'
import { serverOptionsSchema } from '../node/server/server-options.js'
import { builtinScenarios, DEFAULT_SCENARIO } from '../simulator/state/builtin-scenarios.js'
import { scenarioJsonSchema } from '../simulator/state/scenario-schema.js'
import { printOpenApi } from './openapi.js'
import { collectFault, type Flag, flagOption, flagsOf, parseLatency, parseOrigin } from './options.js'
import type { FlagGroup } from '../kernel/options/option-meta.js'
import { serve } from './serve.js'
import { addVerifyCommand } from './verify-command.js'
import { addScenarioCommand } from './scenario-command.js'
import { proxyOption } from './proxy-options.js'
import { addGroupedOptions } from './help-groups.js'
import { ENV_PREFIX, envOf, readSwitchVariables } from './env-options.js'
import { toJsonSchema } from '../kernel/openapi/json-schema.js'
import { worldBundleSchema } from '../simulator/history/world-bundle.js'

/** A flag of the options schema under the group its meta names (default: the world's). */
function grouped({ field, option }: Flag): { option: Option; group: FlagGroup } {
  return { option, group: field.meta.cli?.group ?? 'world' }
}

/** The `multi-area-mock` command line. */
export function buildProgram(version: string): Command {
  const program = new Command('multi-area-mock')
    .description('A simulated backend for five API areas, answered by MSW request handlers.')
    .version(version)
    .showHelpAfterError('(run with --help for usage)')
    // Before the subcommands are added, so they inherit it: errors reach main()'s one exit point.
    .exitOverride()

  // The server's and the simulator's options that name a flag (src/node/server/server-options.ts, the areas' options),
  // each listed under the group its meta names; the options only `serve` reads are described here.
  const flags = flagsOf(serverOptionsSchema)
  const proxyTimeout = flags.findIndex(({ field }) => field.path.join('.') === 'proxyTimeout')
  // The options only `serve` reads, each with its variable as the schema's flags have theirs (--proxy first: it sits among the network flags).
  const own: { option: Option; group: FlagGroup }[] = [
    { option: proxyOption(), group: 'network' },
    { option: new Option('--scenario <name|path>', 'built-in scenario name or path to a scenario JSON file').default(DEFAULT_SCENARIO), group: 'start' },
    { option: new Option('-w, --watch', 'reload the --scenario file when it changes (one line per reload; a broken file keeps the last good world)'), group: 'start' },
    {
      option: new Option('--fault <rule>', 'a fault rule (repeatable): "POST /core/users 503 p=0.5 times=3", JSON (a rule or a list), or @file.json').argParser(collectFault),
      group: 'world',
    },
    { option: new Option('--latency <ms>', 'delay every area request: milliseconds (150) or a range (50..200)').argParser(parseLatency), group: 'world' },
    { option: new Option('-q, --quiet', 'do not log one line per request'), group: 'output' },
  ]
  for (const { option } of own) option.env(envOf(option.flags))
  const command = addGroupedOptions(
    program
      .command('serve', { isDefault: true })
      .description('Start the HTTP server with every area mounted at its prefix and the control API at /__mock (the command run when none is given).'),
    [...flags.slice(0, proxyTimeout).map(grouped), own[0]!, ...flags.slice(proxyTimeout).map(grouped), ...own.slice(1)],
  )
  command
    .addHelpText(
      'after',
      `
Areas and their prefixes:
${ALL_AREAS.map((area) => `  ${area.letter}  ${area.prefix.padEnd(10)} ${area.title}`).join('\n')}

Examples:
  $ multi-area-mock serve
  $ multi-area-mock --port 0                          # the same: serve is the command run when none is given
  $ multi-area-mock serve --scenario ./team.json --watch
  $ multi-area-mock serve --port 0 --seed 42 --clock 2026-01-01T00:00:00Z
  $ multi-area-mock serve --scenario pending-users --root core
  $ multi-area-mock serve --root ledger --signature-mode eip191 --block-time 2s
  $ multi-area-mock serve --scenario ./my-scenario.json
  $ multi-area-mock serve --latency 50..200 --fault 'POST /core/users 503 p=0.2'
  $ multi-area-mock serve --proxy admin=https://users.example.com/api
  $ multi-area-mock serve --state-file world.json     # the world outlives the server
  $ multi-area-mock serve --replay mock-world.json    # the world a failing test saw

Environment variables:
  Every option can come from the variable shown with it, ${ENV_PREFIX}<FLAG>; the flag wins
  when both are given. A repeatable option's variable takes a comma-separated list
  (${envOf('--allowed-host')}=mock,mock.test), --fault's one rule, a JSON list or
  @file.json; a switch's 1 or 0. Secrets (--control-token, --jwt-secret, --store)
  belong there rather than on a command line, which \`ps\` shows.
  $ ${envOf('--seed')}=42 ${envOf('--control-token')}=s3cret multi-area-mock serve

On 0.0.0.0 (in a container, say), requests for localhost (any port) and IP addresses are
  answered and other names refused (DNS rebinding): a compose service's or a Kubernetes
  Service's name needs --allowed-host <name>, and a page served from an origin that is not
  a loopback one needs --cors-origin <origin>.

The inspector (a page to see and steer the world) is at /__mock/ui.`,
    )
    // Commander reads a switch's variable by its presence alone: MULTI_AREA_MOCK_QUIET=0 must not turn it on.
    .hook('preAction', (command) => readSwitchVariables(command))
    .action((values: Record<string, unknown>) => serve(values, flags))
  // `serve` runs when no command is given, so a mistyped one would become its argument: it stays an unknown command.
  program.hook('preSubcommand', (_program, subcommand) => {
    const first = program.args[0]
    if (subcommand === command && first !== undefined && first !== 'serve' && !first.startsWith('-')) {
      program.error(`error: unknown command '${first}' (the commands: ${program.commands.map((each) => each.name()).join(', ')})`)
    }
  })

  const root = flags.find(({ field }) => field.path.join('.') === 'root')!.field
  program
    .command('openapi')
    .description('Print the OpenAPI 3.1 document of the areas and the control API, as `serve` would mount them.')
    .addOption(
      flagOption({
        path: ['area'],
        schema: areaIdSchema,
        meta: { cli: { flag: '--area <area>', description: 'only this area: its own paths, its base URLs as servers', fromText: areaFromText } },
      }),
    )
    .addOption(flagOption({ ...root, meta: { cli: { ...root.meta.cli!, description: 'as `serve --root`: the area is also mounted at "/" (repeatable)' } } }))
    .addOption(new Option('--server <origin>', 'the origin the document names').default('http://127.0.0.1:4000').argParser(parseOrigin))
    .addHelpText(
      'after',
      `
Examples:
  $ multi-area-mock openapi > api.json
  $ multi-area-mock openapi --area ledger > ledger.json
  $ npx openapi-typescript api.json -o api.d.ts`,
    )
    .action(printOpenApi)

  program
    .command('scenarios')
    .description('List the built-in scenarios.')
    .action(() => {
      const width = Math.max(...Object.keys(builtinScenarios).map((name) => name.length))
      for (const [name, scenario] of Object.entries(builtinScenarios)) {
        process.stdout.write(`${name.padEnd(width)}  ${scenario.description ?? ''}\n`)
      }
    })

  program
    .command('scenario-schema')
    .description('Print the JSON Schema of scenario files (committed as scenarios/scenario.schema.json).')
    .action(() => {
      process.stdout.write(`${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`)
    })

  program
    .command('bundle-schema')
    .description('Print the JSON Schema of world bundles (GET /__mock/bundle, serve --replay).')
    .action(() => {
      process.stdout.write(`${JSON.stringify(toJsonSchema(worldBundleSchema, 'output'), null, 2)}\n`)
    })

  addVerifyCommand(program)
  addScenarioCommand(program)

  return program
}
