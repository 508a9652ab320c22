// @ts-check
// How the bench scripts print: one line at a time to stdout, numbers rounded alike, Markdown tables.

/**
 * One line to stdout.
 *
 * @param {string} line
 */
export function log(line) {
  process.stdout.write(`${line}\n`)
}

/**
 * A number with `digits` decimals, or `-` when it is not finite (a figure that was not measured).
 *
 * @param {number} value
 * @param {number} digits
 */
export function fmt(value, digits) {
  return Number.isFinite(value) ? value.toFixed(digits) : '-'
}

/** @param {number} fraction */
export function pct(fraction) {
  return `${fmt(fraction * 100, 0)}%`
}

/**
 * A Markdown table as lines, columns padded: the first `left` columns left-aligned, the others right-aligned.
 *
 * @example
 * markdownTable(['endpoint', 'req/s'], [['GET /x', '123']]).forEach(log)
 * @param {string[]} header
 * @param {string[][]} body
 * @param {number} [left]
 */
export function markdownTable(header, body, left = 1) {
  const widths = header.map((title, i) => Math.max(title.length, ...body.map((row) => row[i].length)))
  const line = (/** @type {string[]} */ cells) => `| ${cells.map((cell, i) => (i < left ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ')} |`
  return [line(header), `|${widths.map((w, i) => (i < left ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...body.map(line)]
}

/**
 * A target with its verdict: `met` true, false, or null for a figure given for information.
 *
 * @typedef {{ target: string, limit: string, measured: string, met: boolean | null }} TargetRow
 */

/**
 * Target rows as the Markdown table every bench script prints them in.
 *
 * @param {TargetRow[]} rows
 */
export function targetLines(rows) {
  return [
    '| target | limit | measured | verdict |',
    '|---|---|---|---|',
    ...rows.map((row) => `| ${row.target} | ${row.limit} | ${row.measured} | ${row.met === null ? 'for information' : row.met ? 'met' : 'NOT met'} |`),
  ]
}
