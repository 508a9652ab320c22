import type { Command, Option } from 'commander'
import { ConfigError } from '../kernel/errors/config-error.js'

/** What every `serve` option's environment variable starts with. */
export const ENV_PREFIX = 'MULTI_AREA_MOCK_'

/**
 * The environment variable of a `serve` flag: the prefix and the long flag in
 * capitals, `-` as `_`. In a container or a CI job every option can be set
 * this way, secrets included, so none has to sit on a command line (`ps`).
 *
 * @example
 * envOf('--cors-origin <origin>') // 'MULTI_AREA_MOCK_CORS_ORIGIN'
 * envOf('-p, --port <port>')      // 'MULTI_AREA_MOCK_PORT'
 */
export function envOf(flags: string): string {
  const long = /--([a-z0-9-]+)/.exec(flags)?.[1]
  if (long === undefined) throw new TypeError(`"${flags}" has no long flag to name a variable after`)
  return `${ENV_PREFIX}${long.toUpperCase().replaceAll('-', '_')}`
}

/**
 * The values of a repeatable flag given once: `a,b` is `a` and `b`, so one
 * variable holds the whole list (`MULTI_AREA_MOCK_ALLOWED_HOST=mock,mock.test`).
 * Host names, origins and areas never hold a comma; `at` splits only before
 * commas followed by what starts a value (`--proxy`'s `area=`), so a comma
 * inside a URL stays.
 *
 * @example
 * listValues('mock, mock.test')                            // ['mock', 'mock.test']
 * listValues('admin=https://a/x,y,core=http://b', /^\s*[A-Za-z]+=/) // ['admin=https://a/x,y', 'core=http://b']
 */
export function listValues(text: string, at?: RegExp): string[] {
  const parts: string[] = []
  for (const part of text.split(',')) {
    if (parts.length > 0 && at !== undefined && !at.test(part)) parts[parts.length - 1] += `,${part}`
    else parts.push(part)
  }
  return parts.map((part) => part.trim())
}

const ON = new Set(['1', 'true', 'yes', 'on'])
const OFF = new Set(['', '0', 'false', 'no', 'off'])

/**
 * Reads a switch's variable (`MULTI_AREA_MOCK_QUIET`) by its value, not by its
 * presence as commander does: `MULTI_AREA_MOCK_QUIET=false` in a compose file
 * must leave the switch off. `1`, `true`, `yes`, `on` turn it on; `0`,
 * `false`, `no`, `off` or nothing leave it off; anything else is refused
 * naming the variable. Run before the command's action (a `preAction` hook).
 *
 * @example
 * command.hook('preAction', (command) => readSwitchVariables(command))
 */
export function readSwitchVariables(command: Command, env: NodeJS.ProcessEnv = process.env): void {
  for (const option of command.options as Option[]) {
    if (option.envVar === undefined || option.required || option.optional || option.negate) continue
    const name = option.attributeName()
    if (command.getOptionValueSource(name) !== 'env') continue
    const text = (env[option.envVar] ?? '').trim().toLowerCase()
    if (OFF.has(text)) command.setOptionValueWithSource(name, undefined, 'env')
    else if (!ON.has(text)) throw new ConfigError(`${option.envVar}="${env[option.envVar]}" is not a switch value: use 1 or 0 (true/false, yes/no, on/off).`)
  }
}
