/**
 * `multi-area-mock/verify`: black-box conformance checks of an implementation
 * of the interface, over plain HTTP (global `fetch` only, so it runs in Node,
 * Deno, Bun or a browser).
 *
 * @example
 * import { verify, formatTable } from 'multi-area-mock/verify'
 * const report = await verify({ target: 'http://localhost:8080', fixtures: { validator: '0x…' } })
 * console.log(formatTable(report))
 */
export { verify, DEFAULT_VERIFY_TIMEOUT, VERIFY_PREFIX } from './runner.js'
export { formatTable } from './table-report.js'
export { formatJUnit } from './junit-report.js'
export { formatJson } from './json-report.js'
export type { CheckResult, CheckStatus, FixtureName, VerifyOptions, VerifyReport, VerifySummary } from './types.js'
