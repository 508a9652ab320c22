import type { AreaId } from '../areas/registry.js'
import { ALL_AREAS } from '../areas/registry.js'
import type { CheckResult, VerifyReport } from './types.js'

const MARK: Record<CheckResult['status'], string> = { pass: 'pass', fail: 'FAIL', skip: 'skip' }

/**
 * The report as a text table: one block per area, one group per operation,
 * one line per check (pass, FAIL or skip, its name, and the title or the
 * reason), expected and actual under a failure, then the summary and score.
 *
 * @example
 * process.stdout.write(formatTable(await verify({ target: 'http://127.0.0.1:4000' })))
 */
export function formatTable(report: VerifyReport): string {
  const width = Math.max(0, ...report.results.map((result) => result.name.length))
  const lines: string[] = []
  for (const area of ALL_AREAS) {
    const results = report.results.filter((result) => result.area === area.id)
    if (results.length === 0) continue
    lines.push('', `Area ${area.letter}: ${area.id}  ${report.bases[area.id as AreaId] ?? '(no base URL)'}`)
    for (const operation of [...new Set(results.map((result) => result.operation))]) {
      lines.push(`  ${operation}`)
      for (const result of results.filter((item) => item.operation === operation)) {
        lines.push(`    ${MARK[result.status]}  ${result.name.padEnd(width)}  ${result.status === 'pass' ? result.title : result.reason}`)
        if (result.status === 'fail' && result.expected !== undefined) lines.push(`          ${''.padEnd(width)}  expected: ${result.expected}`)
        if (result.status === 'fail' && result.actual !== undefined) lines.push(`          ${''.padEnd(width)}  actual:   ${result.actual}`)
      }
    }
  }
  lines.push('', summaryLine(report))
  if (report.leftBehind.length > 0) lines.push(`Left behind (created by this run, prefix ${report.prefix}): ${report.leftBehind.join('; ')}`)
  return `${lines.join('\n')}\n`
}

/** `47 passed, 1 failed, 4 skipped of 52 checks; score 97.9% (passed of those that ran) in 2.3 s` */
export function summaryLine(report: VerifyReport): string {
  const { passed, failed, skipped, total, score } = report.summary
  return `${passed} passed, ${failed} failed, ${skipped} skipped of ${total} checks; score ${score}% (passed of those that ran) in ${(report.durationMs / 1000).toFixed(1)} s`
}
