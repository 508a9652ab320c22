// @ts-check
// `node bench/run.js --help`: the entry points and the table of every switch (bench/switches.js), the same table bench/README.md quotes.

import { SWITCHES } from '../switches.js'
import { log } from './format.js'

const USAGE = [
  'multi-area-mock benchmarks (bench/README.md says what each measures and how)',
  '',
  '  npm run bench                  build, then every row on every server, rounds, journal pairs, issue 25 targets',
  '  node bench/run.js              the same without the build (needs dist/)',
  '  node bench/run.js --scale      scale figures; --proxy, --worlds, --ingest, --targets, --browser: the other benches',
  '  npm run soak | bench:ingest | bench:proxy | bench:worlds | size',
  '  BENCH_SMOKE=1 node bench/run.js   smoke run: 1 s warm-up + 1 round of 1 s, the create row, fast and the baseline',
  '',
  'Switches (environment variables unless they start with -- or <), the bench/ scripts that read them, and smoke: the value under BENCH_SMOKE=1:',
  '',
]

/**
 * The switches as a Markdown table, one row each, in the table's order.
 *
 * @example
 * for (const line of switchesTable()) console.log(line)
 */
export function switchesTable() {
  const code = (/** @type {string} */ text) => (text === '' ? '' : `\`${text}\``)
  const rows = SWITCHES.map((entry) => {
    const names = [entry.name, ...(entry.flag ? [`${entry.flag}${entry.kind === 'on' ? '' : ' N'}`] : [])].map(code).join(', ')
    return `| ${names} | ${code(shownDefault(entry))} | ${code(entry.smoke ?? '')} | ${entry.used} | ${entry.meaning} |`
  })
  return ['| switch | default | smoke | read by | meaning |', '|---|---|---|---|---|', ...rows]
}

/**
 * Prints the help: the usage lines and the table, or (`markdown`) the table alone.
 *
 * @param {{ markdown: boolean }} options
 */
export function printHelp({ markdown }) {
  for (const line of [...(markdown ? [] : USAGE), ...switchesTable()]) log(line)
}

/** @param {import('../switches.js').Switch} entry */
function shownDefault({ shown, fallback }) {
  if (shown !== undefined) return shown
  if (fallback === undefined || fallback === false) return ''
  return Array.isArray(fallback) ? fallback.join(',') : String(fallback)
}
