/**
 * A new user's first minutes with the CLI, end to end with the built
 * `bin/multi-area-mock.js`: the bare command serves (its options too), while
 * `--help` still shows the program's help and a mistyped command is still an
 * unknown command; `serve --help` groups its options under headings, in
 * order; and a server bound to every interface prints URLs that reach it
 * (127.0.0.1), plus this machine's other addresses on one line.
 */
import { networkInterfaces } from 'node:os'
import { describe, expect, it } from 'vitest'
import { type CliServer, runCli, startCli, startCliWith } from './support/cli-server.js'
import { call } from './support/http.js'

/** The headings of `serve --help`, in the order they must appear. */
const HEADINGS = ['Start:', 'World:', 'Network and safety:', 'Replicas and files:', 'Output:']

/** The option lines of `serve --help` under each heading, in order (the text between the description and the areas). */
function optionGroups(help: string): Array<{ heading: string; options: string[] }> {
  const lines = help.slice(0, help.indexOf('Areas and their prefixes:')).split('\n')
  const groups: Array<{ heading: string; options: string[] }> = []
  for (const line of lines.slice(lines.findIndex((candidate) => candidate.startsWith('Usage:')) + 1)) {
    if (/^\S.*:$/.test(line)) groups.push({ heading: line, options: [] })
    else if (/^ {2}-/.test(line)) {
      if (groups.length === 0) throw new Error(`an option before any heading: ${line}`)
      groups.at(-1)!.options.push(line.trim().split(/\s{2,}/)[0]!)
    }
  }
  return groups
}

describe('the bare command', () => {
  it('serves, with serve options given without the command', async () => {
    const server = await startCliWith(['--port', '0', '--quiet', '--seed', '7'])
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const health = await call(`${server.url}/__mock/health`)
      expect(health.status).toBe(200)
      expect(health.body.seed).toBe(7)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  })

  it('--help still shows the program help, with its commands', async () => {
    const { code, stdout } = await runCli(['--help'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: multi-area-mock \[options\] \[command\]/)
    expect(stdout).toMatch(/^Commands:$/m)
    expect(stdout).toMatch(/^ {2}serve \[options\]/m)
  })

  it('a mistyped command is an unknown command, not a server', async () => {
    const { code, stdout, stderr } = await runCli(['srve'])
    expect(code).toBe(1)
    expect(stdout).not.toContain('listening on')
    expect(stderr).toMatch(/^error: unknown command 'srve'/)
  })
})

describe('serve --help', () => {
  it('lists every option under a heading, the headings in order', async () => {
    const { code, stdout } = await runCli(['serve', '--help'])
    expect(code).toBe(0)
    const groups = optionGroups(stdout)
    expect(groups.map((group) => group.heading)).toEqual(HEADINGS)
    for (const group of groups) expect(group.options.length, group.heading).toBeGreaterThan(0)
    const where = (flag: string) => groups.find((group) => group.options.some((option) => option.split(/[ ,]+/).includes(flag)))?.heading
    expect(where('--port')).toBe('Start:')
    expect(where('--scenario')).toBe('Start:')
    expect(where('--watch')).toBe('Start:')
    expect(where('--seed')).toBe('World:')
    expect(where('--sensor-window')).toBe('World:')
    expect(where('--fault')).toBe('World:')
    expect(where('--control-token')).toBe('Network and safety:')
    expect(where('--proxy')).toBe('Network and safety:')
    expect(where('--state-file')).toBe('Replicas and files:')
    expect(where('--store')).toBe('Replicas and files:')
    expect(where('--quiet')).toBe('Output:')
    expect(where('--help')).toBe('Output:')
    // Every option of the command is listed once.
    expect(groups.flatMap((group) => group.options)).toHaveLength(new Set(groups.flatMap((group) => group.options)).size)
  })
})

describe('serve --host 0.0.0.0', () => {
  it('prints URLs that reach the server, and the other addresses it listens on in one line', async () => {
    let server: CliServer | undefined
    try {
      server = await startCli(['--quiet', '--host', '0.0.0.0', '--control-token', 'first-run-token-4b1e'])
      const banner = server.stdout()
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(banner).not.toContain('0.0.0.0:')
      const port = new URL(server.url).port
      const others = Object.values(networkInterfaces())
        .flat()
        .filter((address) => address !== undefined && address.family === 'IPv4' && !address.internal)
        .map((address) => `http://${address!.address}:${port}`)
      const line = banner.split('\n').find((candidate) => candidate.includes('Also on every interface'))
      expect(line).toBe(`     ${'Also on every interface (0.0.0.0)'.padEnd(40)} ${others.length > 0 ? others.join('  ') : '(this machine has no other IPv4 address)'}`)
      expect(banner).toMatch(new RegExp(`^\\s+Inspector\\s+http://127\\.0\\.0\\.1:${port}/__mock/ui$`, 'm'))
      const health = await call(`${server.url}/__mock/health`, { headers: { authorization: 'Bearer first-run-token-4b1e' } })
      expect(health.status).toBe(200)
    } finally {
      await server?.stop()
    }
  })
})
