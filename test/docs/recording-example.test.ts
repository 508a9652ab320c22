/**
 * The worked example of docs/recording.md, run as written, in order, with the
 * built CLI: its blocks are marked `doc-test: skip … recording-example.test.ts`
 * (doc-blocks.test.ts runs a shell block against one server; this one needs
 * three, started and stopped in turn). Each `npx multi-area-mock serve` block
 * starts a server in a scratch folder (its port, 4000 unless `--port` says,
 * mapped to a free one in every later block; a server started on a port in
 * use replaces the one there, as in a terminal); each other shell block runs
 * with bash, its curl statuses checked as in the doc tests; a ```text block
 * is the output of the block before it, or, starting with `^C`, what the
 * server started last prints when it is interrupted: both must match exactly.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { CLI } from '../support/cli-server.js'
import { type DocBlock, blocksOf } from './support/blocks.js'
import { cleanEnv, curlWrapper, expectBlockRan, runShell } from './support/shell.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const DOCUMENT = 'docs/recording.md'
const MARK = 'recording-example.test.ts'
const SERVE = /^npx multi-area-mock serve(?: |$)/

interface Server {
  docPort: string
  port: string
  child: ChildProcessWithoutNullStreams
  stdout(): string
}

/** Starts `npx multi-area-mock serve …` as written, in `cwd`, on a free port; `ports` maps the doc's ports to the real ones. */
async function serve(command: string, cwd: string, ports: ReadonlyMap<string, string>): Promise<Server> {
  const words = command.trim().split(/\s+/).slice(3)
  const at = words.indexOf('--port')
  const docPort = at === -1 ? '4000' : words.splice(at, 2)[1]!
  const args = words.map((word) => mapPorts(word, ports))
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { cwd, stdio: 'pipe', env: cleanEnv() })
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`\`${command}\` printed no banner within 15 s.\n${out}${err}`)), 15_000)
    child.once('exit', (code) => reject(new Error(`\`${command}\` exited (${code}) before listening.\n${out}${err}`)))
    child.stdout.on('data', () => {
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
  })
  return { docPort, port, child, stdout: () => out }
}

/** Ctrl-C: resolves with what the server printed from then on, once it has exited (with 0). */
async function interrupt(server: Server): Promise<string> {
  const before = server.stdout().length
  const exited = once(server.child, 'exit') as Promise<[number | null]>
  server.child.kill('SIGINT')
  const [code] = await exited
  expect(code, `exit code of the server on port ${server.docPort}`).toBe(0)
  return server.stdout().slice(before)
}

function mapPorts(text: string, ports: ReadonlyMap<string, string>): string {
  return text.replace(/\b(?:localhost|127\.0\.0\.1):(\d+)\b/g, (whole, port: string) => (ports.has(port) ? `127.0.0.1:${ports.get(port)}` : whole))
}

describe(`${DOCUMENT}: the worked example`, () => {
  const blocks = blocksOf(ROOT, [DOCUMENT]).filter((block) => block.skip?.includes(MARK))
  const dir = mkdtempSync(join(tmpdir(), 'multi-area-mock-recording-example-'))
  const env = cleanEnv({ PATH: `${curlWrapper(join(dir, '.bin'))}:${process.env.PATH ?? ''}` })
  const servers: Server[] = []
  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM')
    await Promise.all(servers.map((server) => (server.child.exitCode === null && server.child.signalCode === null ? once(server.child, 'exit') : undefined)))
    rmSync(dir, { recursive: true, force: true })
  })

  it('has the blocks of a story: servers, the traffic with its output, the Ctrl-C, the checks', () => {
    const kinds = blocks.map((block) => (block.lang === 'text' ? (block.code.startsWith('^C') ? 'ctrl-c' : 'output') : SERVE.test(block.code) ? 'serve' : 'script'))
    expect(kinds).toEqual(['serve', 'serve', 'script', 'output', 'ctrl-c', 'serve', 'script', 'output', 'script', 'serve', 'script', 'output'])
  })

  it('runs as written, and prints what it shows', { timeout: 120_000 }, async () => {
    const ports = new Map<string, string>()
    let last: { block: DocBlock; stdout: string } | undefined
    for (const block of blocks) {
      if (block.lang === 'text') {
        if (block.code.startsWith('^C')) {
          const running = servers.filter((server) => server.child.exitCode === null && server.child.signalCode === null).at(-1)!
          expect(await interrupt(running), block.where).toBe(`${block.code.split('\n').slice(1).join('\n')}\n`)
        } else {
          expect(last, `${block.where}: output of no block`).toBeDefined()
          expect(last!.stdout, `${block.where}: the output of ${last!.block.where}`).toBe(`${block.code}\n`)
        }
        continue
      }
      if (SERVE.test(block.code)) {
        const server = await serve(block.code, dir, ports)
        // A server started on a port in use replaces the one there (its terminal's Ctrl-C, unless already pressed).
        const previous = servers.find((other) => other.docPort === server.docPort && other.child.exitCode === null && other.child.signalCode === null)
        if (previous) await interrupt(previous)
        servers.push(server)
        ports.set(server.docPort, server.port)
        continue
      }
      const result = await runShell(mapPorts(block.code, ports), dir, env)
      expectBlockRan(result, block.code, { where: block.where })
      last = { block, stdout: result.stdout }
    }
  })
})
