/**
 * Shell blocks of the docs, run as written with bash in a consumer project
 * (so `npx multi-area-mock` is the packed package), against the real CLI
 * server on a free port: the docs say port 4000, which is the one thing
 * rewritten. Each `curl` answer must be a 2xx unless the line's comment starts
 * with the status the docs promise (`curl ... # 404 ...`).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'

/** The environment of a child process, without what the outer vitest set. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) if (!/^(VITEST|TEST$|NODE_ENV$|NODE_OPTIONS$)/.test(key)) env[key] = value
  return { ...env, ...extra }
}

export interface RunningServer {
  port: number
  /** Milliseconds from spawn to the banner. */
  startMs: number
  stop(): Promise<void>
}

/**
 * Runs `command` (a shell line that starts the server) in its own process
 * group, resolves once the banner says "listening on", and stops the whole
 * group on `stop()`.
 */
export function startServer(command: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 15_000): Promise<RunningServer> {
  const started = performance.now()
  const child = spawn('bash', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      kill(child)
      reject(new Error(`\`${command}\` printed no banner within ${timeoutMs} ms.\nstdout: ${out}\nstderr: ${err}`))
    }, timeoutMs)
    void exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`\`${command}\` ended before listening.\nstdout: ${out}\nstderr: ${err}`))
    })
    const onData = () => {
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(out)
      if (!match) return
      clearTimeout(timer)
      const startMs = performance.now() - started
      resolve({
        port: Number(match[1]),
        startMs,
        stop: async () => {
          kill(child)
          await exited
        },
      })
    }
    child.stdout!.on('data', onData)
  })
}

function kill(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGTERM')
  } catch {
    // already gone
  }
}

/** A `curl` first in PATH that runs the real one and logs each answer's status. */
export function curlWrapper(dir: string): string {
  const real = execFileSync('bash', ['-c', 'command -v curl'], { encoding: 'utf8' }).trim()
  mkdirSync(dir, { recursive: true })
  const script = join(dir, 'curl')
  writeFileSync(
    script,
    `#!/bin/sh
# The doc tests' curl: the real one, as written, plus the status of each answer.
body=$(mktemp)
status=$(${real} -sS -o "$body" -w '%{http_code}' "$@")
code=$?
cat "$body" 2>/dev/null
rm -f "$body"
echo "\${status:-000}" >> "$DOC_TEST_CURL_LOG"
exit $code
`,
  )
  chmodSync(script, 0o755)
  return dir
}

/** The docs' port, 4000, replaced by the test server's. */
export function mapPort(code: string, port: number): string {
  return code.replace(/\b(localhost|127\.0\.0\.1):4000\b/g, `127.0.0.1:${port}`)
}

/** The statuses a block's curl calls must get, in order: `2xx`, or the number its line's comment starts with. */
export function expectedStatuses(code: string): string[] {
  const statuses: string[] = []
  for (const line of code.replace(/\\\n/g, ' ').split('\n')) {
    // A comment line runs nothing, whatever it names.
    if (line.trimStart().startsWith('#')) continue
    const calls = line.match(/(^|[\s|;&(]|\$\()curl\s/g)?.length ?? 0
    const promised = /\s#\s*(\d{3})\b/.exec(line)?.[1]
    for (let i = 0; i < calls; i++) statuses.push(promised ?? '2xx')
  }
  return statuses
}

export interface ShellResult {
  code: number | null
  stdout: string
  stderr: string
  statuses: string[]
}

/** Runs a block with bash (`set -eo pipefail`) in `cwd`; curl's statuses come back in order. */
export function runShell(code: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<ShellResult> {
  const log = join(cwd, `curl-${Date.now()}-${Math.random().toString(36).slice(2)}.log`)
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `set -eo pipefail\n${code}`], { cwd, env: { ...env, DOC_TEST_CURL_LOG: log }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => kill(child), timeoutMs)
    child.once('exit', (exitCode) => {
      clearTimeout(timer)
      const statuses = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []
      resolve({ code: exitCode, stdout, stderr, statuses })
    })
  })
}

/** Whether an answer's status is what the docs promise. */
export function statusMatches(actual: string, expected: string): boolean {
  return expected === '2xx' ? /^2\d\d$/.test(actual) : actual === expected
}

/**
 * What a block that ran must show: exit 0, nothing on stderr unless `stderr`
 * is allowed, and each curl call the status the docs promise for it
 * (`expectedStatuses`). Returns the report the failures print.
 *
 * @example
 * expectBlockRan(await runShell(code, dir, env), code, { where: 'docs/x.md:12' })
 */
export function expectBlockRan(result: ShellResult, code: string, { where, stderr = false }: { where?: string; stderr?: boolean } = {}): string {
  const report = `${where ? `${where}: ` : ''}exit ${result.code}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`
  expect(result.code, report).toBe(0)
  if (!stderr) expect(result.stderr, report).toBe('')
  const expected = expectedStatuses(code)
  expect(result.statuses.length, `curl calls made vs written\n${report}`).toBe(expected.length)
  result.statuses.forEach((status, index) =>
    expect(statusMatches(status, expected[index]!), `curl call ${index + 1}: ${status}, the docs promise ${expected[index]}\n${report}`).toBe(true),
  )
  return report
}
