import { ALL_AREAS } from '../areas/registry.js'
import type { VerifyReport } from './types.js'

/**
 * The report as JUnit XML, the form CI systems show test results in: one
 * `<testsuite>` per area, one `<testcase>` per check (classname: area and
 * operation), `<failure>` with expected and actual, `<skipped>` with the reason.
 *
 * @example
 * writeFileSync('verify.xml', formatJUnit(report))
 */
export function formatJUnit(report: VerifyReport): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3)
  const { total, failed, skipped } = report.summary
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="multi-area-mock verify" tests="${total}" failures="${failed}" errors="0" skipped="${skipped}" time="${seconds(report.durationMs)}" timestamp="${report.startedAt}">`,
  ]
  for (const area of ALL_AREAS) {
    const results = report.results.filter((result) => result.area === area.id)
    if (results.length === 0) continue
    const count = (status: string) => results.filter((result) => result.status === status).length
    const time = results.reduce((sum, result) => sum + result.durationMs, 0)
    lines.push(
      `  <testsuite name="Area ${area.letter}: ${area.id}" tests="${results.length}" failures="${count('fail')}" errors="0" skipped="${count('skip')}" time="${seconds(time)}">`,
    )
    for (const result of results) {
      const open = `    <testcase classname="${xml(`${area.id}.${result.operation}`)}" name="${xml(result.name)}" time="${seconds(result.durationMs)}"`
      if (result.status === 'pass') {
        lines.push(`${open}/>`)
      } else if (result.status === 'skip') {
        lines.push(`${open}>`, `      <skipped message="${xml(result.reason)}"/>`, '    </testcase>')
      } else {
        const detail = [result.reason, result.expected !== undefined ? `expected: ${result.expected}` : '', result.actual !== undefined ? `actual: ${result.actual}` : '']
          .filter(Boolean)
          .join('\n')
        lines.push(`${open}>`, `      <failure message="${xml(result.reason)}" type="conformance">${xml(detail)}</failure>`, '    </testcase>')
      }
    }
    lines.push('  </testsuite>')
  }
  lines.push('</testsuites>')
  return `${lines.join('\n')}\n`
}

/** Text as XML character data or an attribute value; characters XML 1.0 cannot hold are dropped. */
function xml(text: string): string {
  return text
    .replace(/[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}
