/**
 * Keeps docs/architecture.md true and its rules kept, run by `npm test`: every
 * folder under `src/` (two levels down) is named in the page and every `src/`
 * path it names exists; the simulator's, the Node side's and the inspector's
 * folders each open with a README.md; environment-agnostic code (and the
 * inspector, a browser bundle) imports no Node module and no msw environment
 * entry; a layer imports only the layers before it, and no area another; the
 * few fixed edges inside the layers that the page states hold; no folder holds
 * more than 20 files. Tests are code too (a test file may import
 * `node:fs`), so the import rules read source files only; the file count
 * counts tests.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const SRC = join(ROOT, 'src')
const DOC = 'docs/architecture.md'
const MAX_FILES = 20

/** Code that runs anywhere (kernel to simulator) or in the browser only (the inspector): no Node, no msw environment entry. */
const NO_ENVIRONMENT = ['src/kernel', 'src/world', 'src/areas', 'src/simulator', 'src/inspector']
const MSW_ENVIRONMENTS = new Set(['msw/node', 'msw/browser', 'msw/native'])
const NODE_BUILTINS = new Set(builtinModules)
/** `node:…` (`node:test` too, which has no bare name), or a built-in's bare name (`fs`). */
const isNodeModule = (specifier: string) => specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0]!)

/** Each top-level folder's layer: a file may import its own layer and those below. The entries are one layer. */
const LAYER: Readonly<Record<string, number>> = {
  kernel: 0,
  world: 1,
  areas: 2,
  simulator: 3,
  node: 4,
  cli: 4,
  browser: 4,
  testing: 4,
  playwright: 4,
  vitest: 4,
  testcontainers: 4,
  verify: 4,
  inspector: 4,
}

/** Files at the root of `src/`, by layer: the main entry, and a constant every layer may read. */
const ROOT_FILES: Readonly<Record<string, number>> = { 'index.ts': 4, 'package-version.ts': 0 }

/** What the browser entry never imports: Node code. */
const NOT_FOR_BROWSER = ['src/node/', 'src/cli/']

/** The control API's registry, which only the file that wires a simulator together imports. */
const CONTROL_REGISTRY = 'src/simulator/control/control-features.js'
const WIRING = 'src/simulator/simulator-instance.ts'
/** What the inspector, a browser bundle that talks HTTP, imports of the package: pure modules only. */
const INSPECTOR_IMPORTS = ['src/areas/ledger/chain/chain.js', 'src/simulator/faults/fault-words.js']

/** Every folder under `dir`, recursively, relative to the repository. */
function foldersUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = `${dir}/${entry.name}`
      return [path, ...foldersUnder(path)]
    })
}

/** How many files a folder holds, not counting its README.md (what says what the others are). */
function filesIn(folder: string): number {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).filter((entry) => entry.isFile() && entry.name !== 'README.md').length
}

/** Every source file (`.ts`, `.tsx`, tests aside) under `dir`, recursively, absolute. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** The module specifiers a file imports or re-exports: static, side-effect and dynamic (`import('x')`, `typeof import('x')`). */
function specifiersOf(text: string): string[] {
  const found: string[] = []
  const pattern = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g
  for (const match of text.matchAll(pattern)) found.push((match[1] ?? match[2] ?? match[3])!)
  return found
}

/** Folders a text names as folders: `src/x/` or `src/x/y/`, not the start of a longer path or of a `<placeholder>` one. */
function foldersNamed(text: string): Set<string> {
  return new Set([...text.matchAll(/(?<![\w./-])(src(?:\/[\w-]+){1,2})\/(?![\w<-]|\.\w)/g)].map((match) => match[1]!))
}

/** Every `src/` path a text names (files and folders; a `<placeholder>` ends it), without a closing dot or slash. */
function pathsNamed(text: string): Set<string> {
  return new Set([...text.matchAll(/(?<![\w./-])src\/[\w./-]*/g)].map((match) => match[0].replace(/[./]+$/, '')))
}

/** The repository path of `src/...` a relative specifier leads to, `undefined` for a package or a path outside `src/`. */
function target(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined
  const path = relative(ROOT, resolve(dirname(file), specifier))
  return path.startsWith('src/') ? path : undefined
}

/** The layer of a repository path under `src/`, `undefined` when none is set for it. */
function layerOf(path: string): number | undefined {
  const [, top = ''] = path.split('/')
  return LAYER[top] ?? ROOT_FILES[top.replace(/\.js$/, '.ts')]
}

describe('the architecture', () => {
  const doc = readFileSync(join(ROOT, DOC), 'utf8')
  const folders = foldersUnder('src')
  const sources = sourceFiles(SRC).map((file) => ({ file, path: relative(ROOT, file), imports: specifiersOf(readFileSync(file, 'utf8')) }))

  it(`names every folder under src/, two levels down, in ${DOC}`, () => {
    const named = foldersNamed(doc)
    expect(folders.filter((folder) => folder.split('/').length <= 3 && !named.has(folder))).toEqual([])
  })

  it(`names in ${DOC} only src/ paths that exist`, () => {
    expect([...pathsNamed(doc)].filter((path) => !existsSync(join(ROOT, path)))).toEqual([])
  })

  it('opens every folder of src/simulator/, src/node/ and src/inspector/ with a README.md', () => {
    const opened = ['src/simulator', 'src/node', 'src/inspector'].flatMap((top) => [top, ...foldersUnder(top)])
    expect(opened.filter((folder) => !existsSync(join(ROOT, folder, 'README.md')))).toEqual([])
  })

  it(`keeps Node and msw's environment entries out of ${NO_ENVIRONMENT.join(', ')} (tests aside)`, () => {
    const found = sources
      .filter(({ path }) => NO_ENVIRONMENT.some((top) => path.startsWith(`${top}/`)))
      .flatMap(({ path, imports }) => imports.filter((specifier) => isNodeModule(specifier) || MSW_ENVIRONMENTS.has(specifier)).map((specifier) => `${path}: ${specifier}`))
    expect(found).toEqual([])
  })

  it('has each layer import only the layers before it, no area another, and the browser entry no Node code', () => {
    const wrong: string[] = []
    for (const { file, path, imports } of sources) {
      const own = layerOf(path)
      if (own === undefined) {
        wrong.push(`${path}: in no layer (give it one in test/architecture.test.ts and ${DOC})`)
        continue
      }
      const [, top, area] = path.split('/')
      for (const specifier of imports) {
        const to = target(file, specifier)
        if (to === undefined) continue
        const [, toTop, toArea] = to.split('/')
        if ((layerOf(to) ?? 0) > own) wrong.push(`${path}: imports ${to}, a later layer`)
        if (top === 'areas' && toTop === 'areas' && path.split('/').length > 3 && to.split('/').length > 3 && area !== toArea) wrong.push(`${path}: imports another area, ${to}`)
        if (top === 'browser' && NOT_FOR_BROWSER.some((folder) => to.startsWith(folder))) wrong.push(`${path}: imports ${to}, Node code`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('keeps the few fixed edges the page states: faults alone, one wiring file, the inspector over HTTP', () => {
    const wrong: string[] = []
    for (const { file, path, imports } of sources) {
      for (const to of imports.map((specifier) => target(file, specifier)).filter((to) => to !== undefined)) {
        if (path.startsWith('src/simulator/faults/') && to.startsWith('src/simulator/') && !to.startsWith('src/simulator/faults/')) wrong.push(`${path}: imports ${to}`)
        if (to === CONTROL_REGISTRY && !path.startsWith('src/simulator/control/') && path !== WIRING) wrong.push(`${path}: imports ${to}`)
        if (path.startsWith('src/inspector/') && !to.startsWith('src/inspector/') && !INSPECTOR_IMPORTS.includes(to)) wrong.push(`${path}: imports ${to}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it(`has no folder of more than ${MAX_FILES} files, tests included`, () => {
    const counts = new Map(['src', ...folders].map((folder) => [folder, filesIn(folder)]))
    expect([...counts].filter(([, count]) => count > MAX_FILES).map(([folder, count]) => `${folder}: ${count} files`)).toEqual([])
  })

  it('reads the imports, folders and paths it is meant to read', () => {
    const code = "import type { A } from './a.js'\nimport './style.css'\nexport { b } from 'node:fs'\nconst c = await import('msw/node')\ntype R = typeof import('@redis/client')"
    expect(specifiersOf(code)).toEqual(['./a.js', './style.css', 'node:fs', 'msw/node', '@redis/client'])
    const text = '`src/node/` and `src/node/server/server.ts`, src/areas/<area>/routes.ts, in src/kernel/http/. Not dist/src/x/.'
    expect(foldersNamed(text)).toEqual(new Set(['src/node', 'src/kernel/http']))
    expect(pathsNamed(text)).toEqual(new Set(['src/node', 'src/node/server/server.ts', 'src/areas', 'src/kernel/http']))
  })
})
