// @ts-check
/**
 * `npm run openapi:lint`: lints the OpenAPI document as users get it, printed by
 * the built CLI (`multi-area-mock openapi`), with the two linters users reach
 * for: Redocly (its recommended rules, `redocly.yaml`) and Spectral
 * (`spectral:oas`, `.spectral.yaml`). Prints one line per tool, and every
 * problem above it; exits 1 on any error or warning of either.
 *
 * Run after `npm run build` (or `npm run bundle-cli`): it reads dist/cli.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)

/** Spectral's severities, by number. */
const SPECTRAL_SEVERITY = ['error', 'warning', 'info', 'hint']

/**
 * A command's output. The linters exit non-zero when they find problems, so the
 * exit code is returned, not thrown.
 *
 * @param {string[]} args
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function run(args) {
  return new Promise((resolve, reject) => {
    // No telemetry and no update check: the machine may have no network, and a lint sends nothing anywhere.
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' }
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.once('error', reject)
    child.once('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

/**
 * The path of an installed package's command.
 *
 * @param {string} pkg
 * @param {string} name
 */
function bin(pkg, name) {
  const manifest = require.resolve(`${pkg}/package.json`)
  const bins = require(manifest).bin
  return join(dirname(manifest), typeof bins === 'string' ? bins : bins[name])
}

/**
 * @typedef {{ tool: string, errors: number, warnings: number, problems: string[] }} LintResult
 */

/**
 * @param {string} file
 * @returns {Promise<LintResult>}
 */
async function redocly(file) {
  const { stdout, stderr } = await run([bin('@redocly/cli', 'redocly'), 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=json'])
  const report = parseJson(stdout, 'Redocly', stderr)
  const problems = report.problems.map(
    (/** @type {{ ruleId: string, severity: string, message: string, location: Array<{ pointer: string }> }} */ problem) =>
      `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? '#'}: ${problem.message}`,
  )
  return { tool: 'Redocly (recommended)', errors: report.totals.errors, warnings: report.totals.warnings, problems }
}

/**
 * @param {string} file
 * @returns {Promise<LintResult>}
 */
async function spectral(file) {
  const { stdout, stderr } = await run([bin('@stoplight/spectral-cli', 'spectral'), 'lint', file, '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet'])
  /** @type {Array<{ code: string, severity: number, message: string, path: string[] }>} */
  const results = stdout.trim() === '' ? [] : parseJson(stdout, 'Spectral', stderr)
  const problems = results.map((result) => `${SPECTRAL_SEVERITY[result.severity]} ${result.code} at #/${result.path.join('/')}: ${result.message}`)
  return {
    tool: 'Spectral (spectral:oas)',
    errors: results.filter((result) => result.severity === 0).length,
    warnings: results.filter((result) => result.severity === 1).length,
    problems,
  }
}

/**
 * @param {string} text
 * @param {string} tool
 * @param {string} stderr
 */
function parseJson(text, tool, stderr) {
  try {
    return JSON.parse(text)
  } catch {
    throw new Error(`${tool} printed no JSON report.\n${stderr.trim() || text.trim()}`)
  }
}

async function main() {
  const printed = await run([join(ROOT, 'bin/multi-area-mock.js'), 'openapi'])
  if (printed.code !== 0) throw new Error(`multi-area-mock openapi failed (exit ${printed.code}); is the CLI built (npm run bundle-cli)?\n${printed.stderr.trim()}`)
  const folder = mkdtempSync(join(tmpdir(), 'openapi-lint-'))
  const file = join(folder, 'openapi.json')
  writeFileSync(file, printed.stdout)
  let failed = false
  try {
    for (const result of [await redocly(file), await spectral(file)]) {
      const clean = result.errors === 0 && result.warnings === 0
      failed ||= !clean
      for (const problem of result.problems) console.log(`  ${problem}`)
      console.log(`${clean ? 'ok  ' : 'FAIL'} ${result.tool}: ${result.errors} errors, ${result.warnings} warnings`)
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
  if (failed) process.exitCode = 1
}

main().catch((error) => {
  console.error(`openapi:lint: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
})
