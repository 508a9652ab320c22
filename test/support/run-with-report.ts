import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** What a test runner run gave: its exit code, everything it printed, and its JSON report. */
export interface ReportedRun<Report> {
  code: number | null
  output: string
  report: Report
}

/**
 * Runs a test runner (`node <script> …args`, e.g. `playwright test` or `vitest
 * run` with a JSON reporter) and reads the JSON report it wrote to `report`;
 * rejects with its output when it left none.
 *
 * @example
 * const { code, report } = await runWithReport<Report>(PLAYWRIGHT, ['test', '--reporter=json,line'], { cwd, env, report: file, name: 'playwright test' })
 */
export function runWithReport<Report>(
  script: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; report: string; name: string },
): Promise<ReportedRun<Report>> {
  const child = spawn(process.execPath, [script, ...args], { cwd: options.cwd, env: options.env ?? process.env, stdio: 'pipe' })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => {
      try {
        resolve({ code, output, report: JSON.parse(readFileSync(options.report, 'utf8')) as Report })
      } catch (error) {
        reject(new Error(`${options.name} left no JSON report (exit ${code}):\n${output}`, { cause: error }))
      }
    })
  })
}
