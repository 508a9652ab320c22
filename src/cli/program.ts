import { Command, Option } from 'commander'
import { builtinScenarios, DEFAULT_SCENARIO } from '../simulator/builtin-scenarios.js'
import { ALL_AREAS } from '../areas/registry.js'
import { DEFAULT_SEED } from '../simulator/options.js'
import { DEFAULT_INGEST_WINDOW, DEFAULT_SENSOR_WINDOW } from '../areas/core/index.js'
import { scenarioJsonSchema } from '../simulator/scenario-schema.js'
import { DEFAULT_JOURNAL_BODY_LIMIT } from '../simulator/journal.js'
import { DEFAULT_HEADERS_TIMEOUT, DEFAULT_REQUEST_TIMEOUT } from '../node/server.js'
import { printOpenApi } from './openapi.js'
import {
  collectArea,
  collectFault,
  parseArea,
  parseClock,
  parseControlToken,
  parseCount,
  parseIdle,
  parseJwtSecret,
  parseLatency,
  parseOrigin,
  parsePoints,
  parsePort,
  parseSeed,
  parseTimeout,
  parseTokenTtl,
} from './options.js'
import { DISPATCH_MODES } from '../node/fast-path.js'
import { CONTROL_TOKEN_ENV, DEFAULT_DISPATCH, serve } from './serve.js'

/** The `multi-area-mock` command line. */
export function buildProgram(version: string): Command {
  const program = new Command('multi-area-mock')
    .description('A simulated backend for five API areas, answered by MSW request handlers.')
    .version(version)
    .showHelpAfterError('(run with --help for usage)')
    // Before the subcommands are added, so they inherit it: errors reach main()'s one exit point.
    .exitOverride()

  program
    .command('serve')
    .description('Start the HTTP server with every area mounted at its prefix and the control API at /__mock.')
    .addOption(new Option('-p, --port <port>', 'port to listen on; 0 picks a free one').default(4000).argParser(parsePort))
    .addOption(new Option('-H, --host <host>', 'interface to bind; use 0.0.0.0 to accept other machines (then consider --control-token)').default('127.0.0.1'))
    .addOption(
      new Option('--control-token <token>', 'require "Authorization: Bearer <token>" on every /__mock request')
        .env(CONTROL_TOKEN_ENV)
        .argParser(parseControlToken),
    )
    .addOption(
      new Option('--headers-timeout <duration>', `time a client may take to send the request line and headers, then 408 (default: ${DEFAULT_HEADERS_TIMEOUT / 1000}s)`).argParser(
        parseTimeout,
      ),
    )
    .addOption(
      new Option(
        '--request-timeout <duration>',
        `time a client may take to send a whole request, body included, then 408 (default: ${DEFAULT_REQUEST_TIMEOUT / 1000}s, or the headers timeout if longer)`,
      ).argParser(parseTimeout),
    )
    .addOption(new Option('-s, --seed <n>', `seed for every generated value and id (default: the scenario's, else ${DEFAULT_SEED})`).argParser(parseSeed))
    .addOption(new Option('-c, --clock <instant>', 'freeze time at an ISO 8601 instant for reproducible timestamps, or "system"').argParser(parseClock))
    .addOption(new Option('--scenario <name|path>', 'built-in scenario name or path to a scenario JSON file').default(DEFAULT_SCENARIO))
    .addOption(
      new Option('--root <area>', `also mount an area at "/" (repeatable; one of ${ALL_AREAS.map((a) => a.id).join(', ')})`).argParser(collectArea),
    )
    .addOption(new Option('--jwt-secret <secret>', 'HS256 secret of Area D tokens (default: derived from the seed)').argParser(parseJwtSecret))
    .addOption(new Option('--token-ttl <seconds>', 'lifetime of Area D tokens: seconds or a duration like 15m (default: 3600)').argParser(parseTokenTtl))
    .addOption(new Option('-q, --quiet', 'do not log one line per request'))
    .addOption(
      new Option('--signature-mode <mode>', 'Area E: how delegation signatures are checked: shape only, or the signer recovered from EIP-191 or EIP-712')
        .choices(['format', 'eip191', 'eip712'])
        .default('format'),
    )
    .addOption(new Option('--block-time <duration>', "Area E: time between blocks, e.g. 6s or 500 (ms) (default: the scenario's, else 6s)"))
    .addOption(
      new Option(
        '--dispatch <mode>',
        'how requests reach the routes: "fast" (Node\'s request straight to the route table), "direct" (a Fetch Request, no msw) or "msw" (getResponse over the msw handlers)',
      )
        .choices([...DISPATCH_MODES])
        .default(DEFAULT_DISPATCH),
    )
    .addOption(
      new Option('--sensor-window <points>', 'Area B: ingested points kept per sensor, the oldest dropped first; counts stay exact (0 keeps none)')
        .default(DEFAULT_SENSOR_WINDOW)
        .argParser(parsePoints),
    )
    .addOption(
      new Option('--ingest-window <points>', 'Area B: ingested points kept in all, over every sensor, the oldest dropped first (0 keeps none)')
        .default(DEFAULT_INGEST_WINDOW)
        .argParser(parsePoints),
    )
    .addOption(new Option('--journal-size <n>', 'requests kept in the journal (GET /__mock/requests); 0 turns it off').default(1000).argParser(parseCount))
    .addOption(
      new Option('--journal-body-limit <chars>', 'characters of each request and response body the journal keeps; 0 keeps none')
        .default(DEFAULT_JOURNAL_BODY_LIMIT)
        .argParser(parseCount),
    )
    .addOption(new Option('--fault <rule>', 'a fault rule (repeatable): "POST /core/users 503 p=0.5 times=3", JSON, or @file.json').argParser(collectFault))
    .addOption(new Option('--latency <ms>', 'delay every area request: milliseconds (150) or a range (50..200)').argParser(parseLatency))
    .addOption(new Option('--max-worlds <n>', 'isolated worlds alive at once (POST /__mock/worlds); 0 turns them off').default(32).argParser(parseCount))
    .addOption(new Option('--world-idle <duration>', 'remove a world after this long without a request (real time)').default('30m').argParser(parseIdle))
    .addHelpText(
      'after',
      `
Areas and their prefixes:
${ALL_AREAS.map((area) => `  ${area.letter}  ${area.prefix.padEnd(10)} ${area.title}`).join('\n')}

Examples:
  $ multi-area-mock serve
  $ multi-area-mock serve --port 0 --seed 42 --clock 2026-01-01T00:00:00Z
  $ multi-area-mock serve --scenario pending-users --root core
  $ multi-area-mock serve --root ledger --signature-mode eip191 --block-time 2s
  $ multi-area-mock serve --scenario ./my-scenario.json
  $ multi-area-mock serve --latency 50..200 --fault 'POST /core/users 503 p=0.2'`,
    )
    .action(serve)

  program
    .command('openapi')
    .description('Print the OpenAPI 3.1 document of the areas and the control API, as `serve` would mount them.')
    .addOption(new Option('--area <area>', 'only this area: its own paths, its base URLs as servers').argParser(parseArea))
    .addOption(new Option('--root <area>', 'as `serve --root`: the area is also mounted at "/" (repeatable)').argParser(collectArea))
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

  return program
}
