/**
 * Fresh consumer projects for the doc tests: the package as `npm pack` makes
 * it, installed the way npm would lay it out, in three kinds of project a user
 * has: ES modules with module NodeNext, CommonJS (`npm init -y`) with module
 * NodeNext, and an app with moduleResolution Bundler. Offline: the packed
 * tarball is unpacked into each project's node_modules and every other
 * package is a link to this repository's node_modules (npm's cache has no
 * copy to install from without the network).
 */
import { inject } from 'vitest'
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export type ConsumerKind = 'esm' | 'cjs' | 'bundler'

export interface Consumer {
  kind: ConsumerKind
  dir: string
}

/** What each kind of project says about itself, as a user's would. */
const PROJECTS: Record<ConsumerKind, { type: 'module' | 'commonjs'; compilerOptions: Record<string, unknown> }> = {
  esm: { type: 'module', compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023'] } },
  // `npm init -y` writes "type": "commonjs"; `tsc --init` writes module NodeNext.
  cjs: { type: 'commonjs', compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023'] } },
  bundler: { type: 'module', compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2023', 'DOM', 'DOM.Iterable'] } },
}

/** Packages a snippet may use besides ours and its dependencies: the test runner, the compiler, and what the docs tell users to add. */
const TOOLS = ['msw', 'vitest', 'typescript', '@types/node', 'viem', 'openapi-typescript', 'openapi-fetch']

/** What `npm pack --json` says of the tarball it wrote: bytes packed and unpacked, and every file. */
export interface PackReport {
  /** The tarball's path. */
  tarball: string
  /** Bytes of the .tgz. */
  size: number
  /** Bytes of its files, unpacked. */
  unpackedSize: number
  files: { path: string; size: number }[]
}

/**
 * The packed package of this run, with npm's own report of it: packed once
 * for every test file by vitest's global setup (test/support/pack-once.ts),
 * from the built repository (`npm test` builds first).
 */
export function packReport(): PackReport {
  return inject('packed')
}

/** The tarball of the packed package (`packReport`). */
export function pack(): string {
  return packReport().tarball
}

/** A project of the given kind in `dir`, with the tarball installed and `files` written into it. */
export async function makeConsumer(kind: ConsumerKind, dir: string, tarball: string, repoModules: string): Promise<Consumer> {
  const modules = join(dir, 'node_modules')
  const own = join(modules, 'multi-area-mock')
  mkdirSync(own, { recursive: true })
  await run('tar', ['-xzf', tarball, '-C', own, '--strip-components=1'])
  const manifest = JSON.parse(readFileSync(join(own, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }
  const linked = [...Object.keys(manifest.dependencies ?? {}), ...TOOLS]
  for (const name of linked) {
    const target = join(repoModules, name)
    if (!existsSync(target)) throw new Error(`doc tests: ${name} is not installed in ${repoModules}`)
    mkdirSync(dirname(join(modules, name)), { recursive: true })
    symlinkSync(target, join(modules, name), 'dir')
  }
  linkBins(modules, ['multi-area-mock', ...linked])

  const project = PROJECTS[kind]
  writeJson(join(dir, 'package.json'), { name: `doc-test-${kind}`, version: '1.0.0', private: true, type: project.type })
  writeJson(join(dir, 'tsconfig.json'), {
    compilerOptions: {
      target: 'ES2022',
      ...project.compilerOptions,
      types: ['node'],
      strict: true,
      // As `tsc --init` writes it; our own declarations are checked below, without it.
      skipLibCheck: true,
      noEmit: true,
    },
    include: ['blocks'],
  })
  // Our .d.ts (or, in the CommonJS project, .d.cts) files, checked with skipLibCheck off.
  // Apart from the blocks: with it off, every package a block imports is checked too (viem's take minutes).
  const entries = kind === 'bundler' ? ['multi-area-mock', 'multi-area-mock/node', 'multi-area-mock/browser'] : ['multi-area-mock', 'multi-area-mock/node']
  writeFileSync(join(dir, 'declarations.ts'), `${entries.map((entry) => `import '${entry}'`).join('\n')}\n`)
  writeJson(join(dir, 'tsconfig.declarations.json'), { extends: './tsconfig.json', compilerOptions: { skipLibCheck: false }, include: ['declarations.ts'] })
  mkdirSync(join(dir, 'blocks'), { recursive: true })
  return { kind, dir }
}

/** node_modules/.bin as npm makes it: one link per `bin` entry of each package. */
export function linkBins(modules: string, names: string[]): void {
  const bin = join(modules, '.bin')
  mkdirSync(bin, { recursive: true })
  for (const name of names) {
    const manifest = JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> }
    const bins = typeof manifest.bin === 'string' ? { [name.split('/').pop()!]: manifest.bin } : (manifest.bin ?? {})
    for (const [command, path] of Object.entries(bins)) {
      const link = join(bin, command)
      if (!existsSync(link)) symlinkSync(join('..', name, path), link)
    }
  }
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`)
}

/** One compiler diagnostic, by file relative to the project. */
export interface Diagnostic {
  file: string
  text: string
}

/** `tsc -p` in the project with the given TypeScript (its `bin/tsc`) and tsconfig; every error, by file. */
export async function typecheck(consumer: Consumer, tsc: string, project = 'tsconfig.json'): Promise<Diagnostic[]> {
  try {
    await run(process.execPath, [tsc, '-p', join(consumer.dir, project), '--pretty', 'false'], { cwd: consumer.dir, maxBuffer: 64 * 1024 * 1024 })
    return []
  } catch (error) {
    const out = String((error as { stdout?: string }).stdout ?? '') || String(error)
    const diagnostics: Diagnostic[] = []
    for (const line of out.split('\n')) {
      const match = /^(.+?)\(\d+,\d+\): error /.exec(line)
      if (match) diagnostics.push({ file: match[1]!, text: line })
      else if (line.trim() && diagnostics.length > 0) diagnostics[diagnostics.length - 1]!.text += `\n${line}`
      else if (line.trim()) diagnostics.push({ file: '(project)', text: line })
    }
    return diagnostics
  }
}

/** A test file's result, by path relative to the project. */
export interface FileResult {
  passed: boolean
  message: string
}

/** `vitest run` in the project; each test file's result. */
export async function vitest(consumer: Consumer): Promise<Map<string, FileResult>> {
  const output = join(consumer.dir, 'vitest-results.json')
  const binary = join(consumer.dir, 'node_modules/vitest/vitest.mjs')
  try {
    await run(process.execPath, [binary, 'run', '--reporter=json', `--outputFile=${output}`], {
      cwd: consumer.dir,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, CI: 'true', NODE_OPTIONS: '' },
      timeout: 120_000,
    })
  } catch (error) {
    if (!existsSync(output) || statSync(output).size === 0)
      throw new Error(`vitest in the ${consumer.kind} project failed: ${String((error as { stderr?: string }).stderr ?? error).slice(0, 4000)}`)
  }
  const report = JSON.parse(readFileSync(output, 'utf8')) as {
    testResults: { name: string; status: string; message?: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[]
  }
  const results = new Map<string, FileResult>()
  for (const file of report.testResults) {
    const failures = file.assertionResults.filter((test) => test.status === 'failed').map((test) => `${test.fullName}: ${test.failureMessages.join('\n')}`)
    const ran = file.assertionResults.some((test) => test.status === 'passed')
    results.set(file.name.slice(consumer.dir.length + 1), {
      passed: file.status === 'passed' && ran && failures.length === 0,
      message: [file.message, ...failures].filter(Boolean).join('\n') || (ran ? '' : 'no test ran'),
    })
  }
  return results
}
