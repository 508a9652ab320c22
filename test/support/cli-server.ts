import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** Path of the compiled CLI, as `npx multi-area-mock` runs it (npm run test:msw3 points it at a bundle made with msw 3). */
export const CLI = process.env.MULTI_AREA_MOCK_TEST_CLI ?? fileURLToPath(new URL('../../bin/multi-area-mock.js', import.meta.url))

export interface CliServer {
  url: string
  process: ChildProcessWithoutNullStreams
  /** Everything printed so far. */
  stdout(): string
  stderr(): string
  /** SIGTERM (SIGKILL after 5 s), then resolves with the exit code. */
  stop(): Promise<number | null>
}

/**
 * Starts the real CLI server (`multi-area-mock serve --port 0 ...`) and resolves
 * once its banner names the URL. Requires `npm run build` (part of `npm test`).
 *
 * @example
 * const server = await startCli(['--seed', '1'])
 * await fetch(`${server.url}/__mock/health`)
 * await server.stop()
 */
export function startCli(args: string[] = [], timeoutMs = 15_000, env: Record<string, string> = {}): Promise<CliServer> {
  return startCliWith(['serve', '--port', '0', ...args], timeoutMs, env)
}

/**
 * `startCli` with the whole command line after `multi-area-mock`, command
 * included or not (`['--port', '0']` starts the bare command).
 *
 * @example
 * const server = await startCliWith(['--port', '0', '--quiet'])
 */
export function startCliWith(argv: string[], timeoutMs = 15_000, env: Record<string, string> = {}): Promise<CliServer> {
  const child = spawn(process.execPath, [CLI, ...argv], { stdio: 'pipe', env: { ...process.env, ...env } })
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`CLI did not start within ${timeoutMs} ms.\nstdout: ${out}\nstderr: ${err}`))
    }, timeoutMs)
    const onData = () => {
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (!match) return
      clearTimeout(timer)
      child.stdout.off('data', onData)
      resolve({
        url: match[1]!,
        process: child,
        stdout: () => out,
        stderr: () => err,
        stop: async () => {
          if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
          child.kill('SIGTERM')
          const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
          const code = await exited
          clearTimeout(timer)
          return code
        },
      })
    }
    child.stdout.on('data', onData)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`CLI exited with code ${code} before listening.\nstdout: ${out}\nstderr: ${err}`))
    })
  })
}

/** Runs the CLI to completion (for commands and start-up failures). */
export function runCli(args: string[], timeoutMs = 15_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'pipe' })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`CLI ${args.join(' ')} did not finish within ${timeoutMs} ms.\nstdout: ${stdout}\nstderr: ${stderr}`))
    }, timeoutMs)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}
