// @ts-check
// Every environment switch and command-line flag of the bench scripts, in one table (its entries in round-switches.js and script-switches.js): the code reads them here, `node bench/run.js --help` prints it, bench/README.md quotes that print.

import { ROUND_SWITCHES } from './round-switches.js'
import { SCRIPT_SWITCHES } from './script-switches.js'

/**
 * How a raw value is read: `seconds` (> 0), `seconds0` (≥ 0), `count` (integer > 0),
 * `count0` (integer ≥ 0), `list` (comma-separated), `sizes` (comma-separated counts),
 * `on` (`1` or the flag: true), `off` (true unless `0`), `text`, `words` (split on
 * spaces), `flag` (present or not).
 *
 * @typedef {'seconds' | 'seconds0' | 'count' | 'count0' | 'list' | 'sizes' | 'on' | 'off' | 'text' | 'words' | 'flag'} Kind
 */
/**
 * @typedef {object} Switch
 * @property {string} name environment variable, flag (`--json`) or positional argument (`<users>`)
 * @property {Kind} kind
 * @property {string} used the scripts that read it
 * @property {string} meaning
 * @property {string} [flag] a command-line flag that sets the same (`--rounds`)
 * @property {number} [arg] for a positional argument: its index after the script's path
 * @property {unknown} [fallback] the default value, or a function of the other settings
 * @property {string} [shown] the default as the table shows it, where it is not the value itself
 * @property {string} [smoke] the value under BENCH_SMOKE=1, unless the switch is set
 */
/** @typedef {(name: string) => any} Get another switch's value, for a default that follows it */

/**
 * Every switch, in the order `node bench/run.js --help` prints them: run.js and its rounds (round-switches.js), then the other benches (script-switches.js).
 *
 * @example
 * const names = SWITCHES.map((entry) => entry.name)
 * @type {Switch[]}
 */
export const SWITCHES = [...ROUND_SWITCHES, ...SCRIPT_SWITCHES]

/**
 * The value of one switch: the environment, else its flag, else its smoke value
 * under BENCH_SMOKE=1, else its default. Throws on a value of the wrong kind.
 *
 * @example
 * const seconds = setting('BENCH_DURATION') // 10, or BENCH_DURATION parsed
 * @param {string} name
 * @param {NodeJS.ProcessEnv} [env]
 * @param {string[]} [argv]
 * @returns {any}
 */
export function setting(name, env = process.env, argv = process.argv) {
  const entry = SWITCHES.find((candidate) => candidate.name === name)
  if (!entry) throw new Error(`bench: no switch ${name} in bench/switches.js`)
  if (entry.kind === 'flag') return argv.includes(entry.name)
  let raw = entry.arg === undefined ? env[entry.name] : argv[2 + entry.arg]
  if (empty(raw) && entry.flag) raw = entry.kind === 'on' ? (argv.includes(entry.flag) ? '1' : undefined) : argAfter(argv, entry.flag)
  if (empty(raw) && entry.smoke !== undefined && env.BENCH_SMOKE === '1') raw = entry.smoke
  if (empty(raw)) return typeof entry.fallback === 'function' ? entry.fallback((/** @type {string} */ other) => setting(other, env, argv)) : entry.fallback
  return parse(entry, /** @type {string} */ (raw))
}

/** @param {string | undefined} raw */
function empty(raw) {
  return raw === undefined || raw === ''
}

/**
 * The value after a flag (`--rounds 1`), if given.
 *
 * @param {string[]} argv
 * @param {string} flag
 */
function argAfter(argv, flag) {
  const index = argv.indexOf(flag)
  return index === -1 ? undefined : argv[index + 1]
}

/**
 * @param {Switch} entry
 * @param {string} raw
 * @returns {any}
 */
function parse({ name, kind }, raw) {
  const value = Number(raw)
  /** @type {(what: string) => never} */
  const fail = (what) => {
    throw new Error(`${name} must be ${what}, got "${raw}"`)
  }
  switch (kind) {
    case 'seconds':
      return Number.isFinite(value) && value > 0 ? value : fail('a positive number of seconds')
    case 'seconds0':
      return Number.isFinite(value) && value >= 0 ? value : fail('zero or more seconds')
    case 'count':
      return Number.isSafeInteger(value) && value > 0 ? value : fail('a positive integer')
    case 'count0':
      return Number.isSafeInteger(value) && value >= 0 ? value : fail('zero or a positive integer')
    case 'list':
      return raw
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    case 'sizes':
      return raw.split(',').map((item) => parse({ name, kind: 'count', used: '', meaning: '' }, item.trim()))
    case 'on':
      return raw === '1'
    case 'off':
      return raw !== '0'
    case 'words':
      return raw.split(/\s+/).filter(Boolean)
    default:
      return raw
  }
}
