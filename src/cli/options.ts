import { readFileSync, statSync } from 'node:fs'
import { InvalidArgumentError, Option } from 'commander'
import type * as z from 'zod'
import { fieldsOf, type OptionField, unwrap } from '../kernel/options/option-fields.js'
import { ConfigError } from '../kernel/errors/config-error.js'
import { flagValue } from '../kernel/options/parse-options.js'
import { areaFromText, type AreaId, areaIdSchema } from '../areas/registry.js'
import type { FaultRule } from '../simulator/faults/fault-rule.js'
import { parseFaultText, parseLatencyText } from '../simulator/faults/fault-text.js'
import { envOf, listValues } from './env-options.js'

/** An option with a flag, and the commander option that sets it. */
export interface Flag {
  field: OptionField
  option: Option
}

/**
 * The flags of an options schema (`serverOptionsSchema`): one commander option
 * per option that names a flag, checked by the option's own schema when
 * commander reads it, so a bad value is commander's one-line usage error
 * naming the flag. Each can also come from its environment variable: the one
 * its meta names, else `MULTI_AREA_MOCK_` and the flag (`envOf`).
 *
 * @example
 * for (const { option } of flagsOf(serverOptionsSchema)) command.addOption(option)
 */
export function flagsOf(schema: z.ZodType): Flag[] {
  return fieldsOf(schema).flatMap((field) => (field.meta.cli ? [{ field, option: flagOption(field, field.meta.cli.env ?? envOf(field.meta.cli.flag)) }] : []))
}

/**
 * The commander option of one option: its flag, help (with the schema's
 * default and choices), environment variable (`env`, default: the one its
 * meta names, if any) and checks. A repeatable option takes a comma-separated
 * list in one value too, which is how its variable gives several.
 */
export function flagOption(field: OptionField, env = field.meta.cli?.env): Option {
  const cli = field.meta.cli!
  const shown = cli.defaultText ?? (field.defaultValue === undefined ? undefined : JSON.stringify(field.defaultValue))
  const option = new Option(cli.flag, shown === undefined ? cli.description : `${cli.description} (default: ${shown})`)
  const inner = unwrap(field.schema).inner
  if (inner.def.type === 'enum') option.argChoices = (inner as z.ZodEnum).options.map(String)
  if (env) option.env(env)
  const check = (text: string) => {
    const checked = flagValue(field, text)
    // Commander's own message quotes the value; a secret's (a token, a signing key) must not reach a terminal or CI log.
    if ('error' in checked && field.meta.secret) {
      throw new ConfigError(`option '${cli.flag}'${env ? ` (or ${env})` : ''} is invalid (value not shown): ${checked.error}`)
    }
    if ('error' in checked) throw new InvalidArgumentError(checked.error)
    return checked.value
  }
  return option.argParser((text: string, previous: unknown) => (cli.repeatable ? [...((previous as unknown[] | undefined) ?? []), ...listValues(text).map(check)] : check(text)))
}

/**
 * The options the flags given on the command line set, nested as the schema
 * has them (`--sensor-window 5` is `{ ingestion: { sensorWindow: 5 } }`).
 *
 * @example
 * optionsFromFlags(command.opts(), flagsOf(serverOptionsSchema))
 */
export function optionsFromFlags(values: Record<string, unknown>, flags: readonly Flag[]): Record<string, unknown> {
  const options: Record<string, unknown> = {}
  for (const { field, option } of flags) {
    const value = values[option.attributeName()]
    if (value === undefined) continue
    let target = options
    for (const key of field.path.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>
    target[field.path.at(-1)!] = value
  }
  return options
}

/** An area by id (`ledger`) or letter (`E`), for flags that name one (`verify --area`, `serve --proxy`). */
export function parseArea(value: string): AreaId {
  const area = areaIdSchema.safeParse(areaFromText(value))
  if (!area.success) throw new InvalidArgumentError(`unknown area "${value}": ${area.error.issues[0]!.message}.`)
  return area.data
}

/** A repeatable area flag: the areas named, each once. */
export function collectArea(value: string, previous: AreaId[] = []): AreaId[] {
  const area = parseArea(value)
  return previous.includes(area) ? previous : [...previous, area]
}

/** `--server`: the origin the document names, e.g. `http://127.0.0.1:4000`. */
export function parseOrigin(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidArgumentError('expected an absolute URL such as http://127.0.0.1:4000.')
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash) {
    throw new InvalidArgumentError('expected an http(s) origin without a path, such as http://127.0.0.1:4000.')
  }
  return url.origin
}

/** `--fault` (repeatable): words like `POST /core/users 503 p=0.5`, JSON, or `@file.json` holding a rule or a list. */
export function collectFault(value: string, previous: FaultRule[] = []): FaultRule[] {
  let text = value
  if (value.startsWith('@')) {
    const file = value.slice(1)
    // A regular file only: reading a device (`/dev/zero`) or a named pipe would never end.
    const kind = statSync(file, { throwIfNoEntry: false })
    if (kind !== undefined && !kind.isFile()) throw new InvalidArgumentError(`cannot read ${file}: it is not a regular file.`)
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      throw new InvalidArgumentError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`)
    }
  }
  return [...previous, ...rethrown(() => parseFaultText(text))]
}

/** `--latency`: milliseconds (`150`) or a range (`50..200`). */
export function parseLatency(value: string): number | [number, number] {
  return rethrown(() => parseLatencyText(value))
}

/** Commander reports an `InvalidArgumentError` as a one-line usage error. */
function rethrown<T>(parse: () => T): T {
  try {
    return parse()
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error))
  }
}
