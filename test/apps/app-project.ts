/**
 * Real apps made from the fixtures in this folder, for test/app-*.test.ts: the
 * recipes of docs/browser.md, whose blocks are these files (checked by
 * `shownInDocs`). Each app is installed offline the way the doc tests install
 * their projects (test/docs/support/consumers.ts): the packed package unpacked
 * into its node_modules, every other package it names (its package.json's
 * dependencies and devDependencies, and ours) a link to this repository's
 * node_modules. Apps live under test-output/apps/, inside the repository:
 * Turbopack reads no file above its root, the folder of the nearest lockfile,
 * and the linked packages must be under it.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { extractBlocks } from '../docs/support/blocks.js'
import { linkBins } from '../docs/support/consumers.js'
import { cleanEnv } from '../docs/support/shell.js'

const run = promisify(execFile)
export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const MODULES = join(ROOT, 'node_modules')
const FIXTURES = fileURLToPath(new URL('.', import.meta.url))

/**
 * Strings only the simulator's browser code holds: a built-in scenario's name
 * (the simulator's chunk), the browser entry's handler name (its entry) and
 * msw's worker script (msw's browser code). The tests check them against a
 * build that has the simulator, so they stay true.
 */
export const SIMULATOR_MARKERS = ['entangled-pairs', 'multi-area-mock', 'mockServiceWorker']

/** The environment an app's tools run in: ours without vitest's (`NODE_ENV=test` would change what Vite and Next build), no telemetry. */
export const appEnv = (extra: Record<string, string> = {}) => cleanEnv({ NEXT_TELEMETRY_DISABLED: '1', ...extra })

export interface App {
  dir: string
  /** Runs one of the app's bins (`node_modules/.bin/<name>`) to its end; its output. */
  run(bin: string, args: string[], env?: NodeJS.ProcessEnv, timeoutMs?: number): Promise<string>
  /** Starts a bin that serves on `port` and resolves once `url` answers. */
  serve(bin: string, args: string[], url: string, env?: NodeJS.ProcessEnv, timeoutMs?: number): Promise<Served>
  remove(): void
}

export interface Served {
  output(): string
  stop(): Promise<void>
}

/** Copies `test/apps/<fixture>` into a fresh folder under test-output/apps/ and installs it from `tarball`. */
export async function makeApp(fixture: string, tarball: string): Promise<App> {
  const parent = join(ROOT, 'test-output', 'apps')
  mkdirSync(parent, { recursive: true })
  const dir = mkdtempSync(join(parent, `${fixture}-`))
  cpSync(join(FIXTURES, fixture), dir, { recursive: true })
  const modules = join(dir, 'node_modules')
  const own = join(modules, 'multi-area-mock')
  mkdirSync(own, { recursive: true })
  await run('tar', ['-xzf', tarball, '-C', own, '--strip-components=1'])
  const named = (path: string) => {
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }
    return [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]
  }
  const linked = [...new Set([...named(join(dir, 'package.json')), ...named(join(own, 'package.json'))])].filter((name) => name !== 'multi-area-mock')
  for (const name of linked) {
    if (!existsSync(join(MODULES, name))) throw new Error(`${fixture}: ${name} is not installed in ${MODULES} (npm ci)`)
    mkdirSync(dirname(join(modules, name)), { recursive: true })
    symlinkSync(join(MODULES, name), join(modules, name), 'dir')
  }
  linkBins(modules, ['multi-area-mock', ...linked])
  const binPath = (bin: string) => join(modules, '.bin', bin)
  return {
    dir,
    async run(bin, args, env = appEnv(), timeoutMs = 180_000) {
      try {
        const { stdout, stderr } = await run(process.execPath, [binPath(bin), ...args], { cwd: dir, env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 })
        return `${stdout}${stderr}`
      } catch (error) {
        const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
        throw new Error(`${fixture}: ${bin} ${args.join(' ')} failed: ${String(error)}\n${stdout}\n${stderr}`.slice(0, 8000))
      }
    },
    serve: (bin, args, url, env = appEnv(), timeoutMs = 60_000) => serve(spawn(process.execPath, [binPath(bin), ...args], { cwd: dir, env, detached: true }), url, timeoutMs),
    remove() {
      if (process.env.APP_TEST_KEEP) console.log(`[app tests] kept ${dir}`)
      else rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Waits until `url` answers (any status), failing with the output if the process ends or the time runs out. */
async function serve(child: ChildProcess, url: string, timeoutMs: number): Promise<Served> {
  let output = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    // Its own process group: the dev servers start workers of their own.
    signal(child, 'SIGTERM')
    const killer = setTimeout(() => signal(child, 'SIGKILL'), 5_000)
    await exited
    clearTimeout(killer)
  }
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the server ended (code ${child.exitCode}) before answering.\n${output}`)
    try {
      await fetch(url, { signal: AbortSignal.timeout(5_000) })
      return { output: () => output, stop }
    } catch {
      if (Date.now() > deadline) {
        await stop()
        throw new Error(`${url}: no answer within ${timeoutMs} ms.\n${output}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
}

function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, name)
  } catch {
    // The group is gone already.
  }
}

/** Every file under `dir` whose name matches `pattern`, with its size and whether it holds each marker. */
export function builtFiles(dir: string, pattern = /\.(js|mjs|html)$/): { path: string; bytes: number; markers: string[] }[] {
  const walk = (at: string): string[] =>
    readdirSync(at, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(at, entry.name)) : pattern.test(entry.name) ? [join(at, entry.name)] : []))
  return walk(dir).map((path) => {
    const text = readFileSync(path, 'utf8')
    return { path: path.slice(dir.length + 1), bytes: statSync(path).size, markers: SIMULATOR_MARKERS.filter((marker) => text.includes(marker)) }
  })
}

/** The documents whose blocks may be fixture files. */
const DOCUMENTS = ['README.md', 'docs/browser.md']

/**
 * The blocks of the docs that say (in their `doc-test: skip` reason) they are
 * a file of a fixture under `test/apps/<fixture>/`, each with that file's text.
 */
export function shownInDocs(fixture: string): { where: string; file: string; block: string; text: string | undefined }[] {
  const prefix = `test/apps/${fixture}/`
  return DOCUMENTS.flatMap((document) => extractBlocks(document, readFileSync(join(ROOT, document), 'utf8')))
    .map((block) => ({
      block,
      file: block.skip
        ?.split(/\s+/)
        .find((word) => word.startsWith(prefix))
        ?.replace(/[,;:.]$/, ''),
    }))
    .filter((found): found is { block: (typeof found)['block']; file: string } => found.file !== undefined)
    .map(({ block, file }) => ({ where: block.where, file, block: `${block.code}\n`, text: existsSync(join(ROOT, file)) ? readFileSync(join(ROOT, file), 'utf8') : undefined }))
}
