/**
 * The CLI whose reader goes away (`| head`), run as a user runs it: the
 * compiled CLI (`npm run build` first) in a real pipe. Before, Node printed
 * "Unhandled 'error' event" with an EPIPE stack trace.
 */
import { spawn, spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { CLI } from './support/cli-server.js'

describe('the CLI piped into a reader that stops early', () => {
  it('`multi-area-mock --help | head -3` prints three lines and nothing on stderr', () => {
    const shell = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" --help | head -3`], { encoding: 'utf8' })
    expect(shell.stdout.split('\n').slice(0, 3)).toEqual(['Usage: multi-area-mock [options] [command]', '', expect.stringContaining('simulated backend')])
    expect(shell.stderr).toBe('')
  })

  it('`multi-area-mock --help | true` (a reader gone before the CLI writes) ends quietly with 0', () => {
    const shell = spawnSync('bash', ['-c', `"${process.execPath}" "${CLI}" --help | true; echo "cli exit \${PIPESTATUS[0]}"`], { encoding: 'utf8' })
    expect(shell.stderr).toBe('')
    expect(shell.stdout).toBe('cli exit 0\n')
  })

  it('a reader that closes before reading anything: `openapi` ends quietly with 0', async () => {
    const child = spawn(process.execPath, [CLI, 'openapi'], { stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.destroy() // the reader is gone before the first write
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    expect(stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /)
    expect(stderr).toBe('')
    expect(code).toBe(0)
  })
})
