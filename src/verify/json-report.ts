import type { VerifyReport } from './types.js'

/**
 * The report as JSON (`--report` writes it beside the JUnit file): the base
 * URLs, the prefix, every result with its reason, expected and actual, the
 * summary and what was left behind.
 *
 * @example
 * writeFileSync('verify.json', formatJson(report))
 */
export function formatJson(report: VerifyReport): string {
  return `${JSON.stringify({ tool: 'multi-area-mock verify', ...report }, null, 2)}\n`
}
