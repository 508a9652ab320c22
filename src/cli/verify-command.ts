import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { type Command, InvalidArgumentError, Option } from 'commander'
import type { AreaId } from '../areas/registry.js'
import { parseDuration } from '../kernel/time/sim-clock.js'
import { ALL_AREAS } from '../areas/registry.js'
import { DEFAULT_VERIFY_TIMEOUT, type FixtureName, formatJson, formatJUnit, formatTable, verify } from '../verify/index.js'
import { collectArea, parseArea } from './options.js'

const FIXTURES: readonly FixtureName[] = ['product', 'resource', 'token', 'validator', 'signature-mode', 'chain-id', 'jwt-secret', 'expired-token', 'login']

interface VerifyFlags {
  target?: string
  base?: Partial<Record<AreaId, string>>
  area?: AreaId[]
  readOnly?: boolean
  fixture?: Partial<Record<FixtureName, string>>
  header?: Record<string, string>
  check?: string[]
  report?: string
  timeout: number
}

/** Adds `multi-area-mock verify` to the program. */
export function addVerifyCommand(program: Command): void {
  program
    .command('verify')
    .description('Check an implementation of the interface over HTTP: shapes, statuses, errors, pagination, state transitions, auth and the decisions. Exits 1 if a check fails.')
    .addOption(new Option('--target <url>', 'origin (or base) with every area at its usual prefix: /admin, /core, /quantum, /general, /ledger').argParser(parseUrl))
    .addOption(new Option('--base <area=url>', 'base URL of one area, overriding --target for it (repeatable)').argParser(collectBase))
    .addOption(new Option('--area <area>', "only this area's checks (repeatable; default: every area with a base URL)").argParser(collectArea))
    .addOption(new Option('--read-only', 'only reads: skip every check that creates or changes data'))
    .addOption(new Option('--fixture <name=value>', `a value the checks cannot create (repeatable): ${FIXTURES.join(', ')}`).argParser(collectFixture))
    .addOption(new Option('--header <name: value>', 'a header sent with every request (repeatable), e.g. "x-mock-world: ci"').argParser(collectHeader))
    .addOption(new Option('--check <prefix>', 'only checks whose name starts with this (repeatable), e.g. admin.list-users').argParser(collectText))
    .addOption(new Option('--report <file>', 'write JUnit XML to <file> and JSON beside it (<file> with .json)'))
    .addOption(new Option('--timeout <duration>', 'time each request may take').default(DEFAULT_VERIFY_TIMEOUT, `${DEFAULT_VERIFY_TIMEOUT / 1000}s`).argParser(parseRequestTimeout))
    .addHelpText(
      'after',
      `
Checks create what they read, under names starting with "mam-verify-", and
remove it again where the interface allows; they never change or delete
anything else. Values they cannot create are passed as fixtures; a check that
needs a missing one is skipped and says which.

Examples:
  $ multi-area-mock verify --target http://127.0.0.1:4000 --fixture product=prod-1001 --fixture validator=0x87148ec17A1bD256911257B51321a032a2826C8e
  $ multi-area-mock verify --base admin=https://users.example.com/api --base core=http://localhost:8080 --report junit.xml
  $ multi-area-mock verify --target https://staging.example.com --read-only --area ledger`,
    )
    .action(runVerify)
}

async function runVerify(flags: VerifyFlags): Promise<void> {
  if (flags.target === undefined && flags.base === undefined) throw new Error('verify needs --target <url> or --base <area>=<url>.')
  const report = await verify({
    ...(flags.target !== undefined ? { target: flags.target } : {}),
    ...(flags.base !== undefined ? { bases: flags.base } : {}),
    ...(flags.area !== undefined ? { areas: flags.area } : {}),
    readOnly: flags.readOnly ?? false,
    fixtures: flags.fixture ?? {},
    headers: flags.header ?? {},
    only: flags.check ?? [],
    timeoutMs: flags.timeout,
  })
  process.stdout.write(`multi-area-mock verify (prefix ${report.prefix})\n${formatTable(report)}`)
  if (flags.report !== undefined) {
    const json = /\.xml$/i.test(flags.report) ? flags.report.replace(/\.xml$/i, '.json') : `${flags.report}.json`
    await mkdir(dirname(flags.report), { recursive: true })
    await writeFile(flags.report, formatJUnit(report))
    await writeFile(json, formatJson(report))
    process.stdout.write(`Reports: ${flags.report} (JUnit XML), ${json} (JSON)\n`)
  }
  if (report.summary.failed > 0) throw new Error(`${report.summary.failed} of ${report.summary.total} checks failed.`)
}

function parseUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidArgumentError('expected an absolute http(s) URL such as http://127.0.0.1:4000.')
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash) throw new InvalidArgumentError('expected an http(s) URL without a query, such as https://api.example.com/v2.')
  return url.href.replace(/\/+$/, '')
}

function collectBase(value: string, previous: Partial<Record<AreaId, string>> = {}): Partial<Record<AreaId, string>> {
  const at = value.indexOf('=')
  if (at <= 0) throw new InvalidArgumentError(`expected <area>=<url>, e.g. admin=https://users.example.com/api; areas: ${ALL_AREAS.map((a) => a.id).join(', ')}.`)
  return { ...previous, [parseArea(value.slice(0, at))]: parseUrl(value.slice(at + 1)) }
}

function collectFixture(value: string, previous: Partial<Record<FixtureName, string>> = {}): Partial<Record<FixtureName, string>> {
  const at = value.indexOf('=')
  const name = value.slice(0, Math.max(0, at)) as FixtureName
  if (at <= 0 || !FIXTURES.includes(name) || at === value.length - 1) throw new InvalidArgumentError(`expected <name>=<value> with a name among ${FIXTURES.join(', ')}.`)
  const fixture = value.slice(at + 1)
  if (name === 'signature-mode' && !['format', 'eip191', 'eip712'].includes(fixture)) throw new InvalidArgumentError('signature-mode must be format, eip191 or eip712.')
  if (name === 'chain-id' && !/^\d+$/.test(fixture)) throw new InvalidArgumentError('chain-id must be an integer.')
  if (name === 'login' && !/^[^:]+:.+$/.test(fixture)) throw new InvalidArgumentError('login must be <username>:<password>.')
  return { ...previous, [name]: fixture }
}

function collectHeader(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*(.*)$/.exec(value)
  if (!match) throw new InvalidArgumentError('expected "Name: value", e.g. "x-mock-world: ci".')
  return { ...previous, [match[1]!.toLowerCase()]: match[2]! }
}

function collectText(value: string, previous: string[] = []): string[] {
  return [...previous, value]
}

function parseRequestTimeout(value: string): number {
  let ms: number
  try {
    ms = parseDuration(value)
  } catch {
    ms = Number.NaN
  }
  if (!Number.isSafeInteger(ms) || ms < 1 || ms > 600_000) throw new InvalidArgumentError('expected a duration from 1ms to 10m, such as 5s or 500 (ms).')
  return ms
}
