/**
 * The package's types in a project as `tsc --init` writes it: strict, module
 * NodeNext and `exactOptionalPropertyTypes`, where `{ seed: undefined }` is not
 * `{}`: an option typed `seed?: number` refuses it, so
 * `propagateMockWorld({ mockServerUrl: process.env.MOCK_URL })` would not
 * compile. The packed package is installed into a fresh project
 * (test/docs/support/consumers.ts) with the files of test/consumer-types/ (its
 * tsconfig, `undefined` for every optional option of every exported option
 * type) and every TypeScript block of docs/e2e.md, read from the document so
 * the two cannot drift; all compiled with this repository's TypeScript.
 * Needs `npm run build` (part of `npm test`).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blocksOf, type DocBlock } from './docs/support/blocks.js'
import { type Diagnostic, makeConsumer, pack, typecheck } from './docs/support/consumers.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const MODULES = join(ROOT, 'node_modules')
const FIXTURES = join(ROOT, 'test/consumer-types')
const DOCUMENT = 'docs/e2e.md'
/** What the snippets import besides the package and the doc tests' tools (all devDependencies here); SvelteKit's types are declared in the fixture. */
const SNIPPET_PACKAGES = ['@playwright/test', 'express', '@types/express']

const blocks = blocksOf(ROOT, [DOCUMENT]).filter((block) => block.lang === 'ts' || block.lang === 'typescript')
/** A block its doc-test directive calls a fragment (a few lines of a bigger file) is not a file of its own. */
const isFragment = (block: DocBlock) => /\bfragment\b/i.test(block.skip ?? '')
/** tsc reports no type error at all while a file does not parse: such a block stays out of the project and fails alone. */
const parses = (block: DocBlock) => (ts.transpileModule(block.code, { reportDiagnostics: true, fileName: 'block.ts' }).diagnostics ?? []).length === 0
const compiled = blocks.filter((block) => !isFragment(block) && parses(block))
const fileOf = (line: number) => `e2e/e2e-L${line}.ts`
const work = mkdtempSync(join(tmpdir(), 'mam-consumer-types-'))
let diagnostics: Diagnostic[] = []

beforeAll(async () => {
  const dir = join(work, 'project')
  const consumer = await makeConsumer('esm', dir, pack(), MODULES)
  for (const name of SNIPPET_PACKAGES) {
    mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true })
    symlinkSync(join(MODULES, name), join(dir, 'node_modules', name), 'dir')
  }
  // The fixture's tsconfig replaces the doc tests' one; its files sit beside it.
  rmSync(join(dir, 'declarations.ts'))
  cpSync(FIXTURES, dir, { recursive: true })
  mkdirSync(join(dir, 'e2e'))
  for (const block of compiled) writeFileSync(join(dir, fileOf(block.line)), block.code)
  // Proof that the option is on: with it off, this `@ts-expect-error` is unused, an error too.
  writeFileSync(join(dir, 'exact-optional.ts'), '// @ts-expect-error undefined is not a string\nexport const exact: { option?: string } = { option: undefined }\n')
  diagnostics = await typecheck(consumer, join(MODULES, 'typescript/bin/tsc'))
}, 180_000)

afterAll(() => {
  rmSync(work, { recursive: true, force: true })
})

/** The errors of one file of the project, as tsc prints them. */
function errorsOf(file: string): string {
  return diagnostics
    .filter((diagnostic) => diagnostic.file === file)
    .map((diagnostic) => diagnostic.text)
    .join('\n')
}

describe('a project with exactOptionalPropertyTypes (strict, module NodeNext)', () => {
  it('has the option on, and no error outside the files checked below', () => {
    expect(errorsOf('exact-optional.ts')).toBe('')
    const known = new Set(['exact-optional.ts', 'undefined-options.ts', ...compiled.map((block) => fileOf(block.line))])
    expect(
      diagnostics
        .filter((diagnostic) => !known.has(diagnostic.file))
        .map((diagnostic) => diagnostic.text)
        .join('\n'),
    ).toBe('')
  })

  it(`reads the TypeScript blocks of ${DOCUMENT}`, () => {
    // The Playwright config, the fixture, createMockWorld, vitest, Express, SvelteKit.
    expect(compiled.length).toBeGreaterThanOrEqual(6)
  })

  for (const block of blocks) {
    if (isFragment(block)) continue
    it(`${block.where} (${block.lang}) compiles`, () => {
      expect(parses(block), 'parses as a module').toBe(true)
      expect(errorsOf(fileOf(block.line))).toBe('')
    })
  }

  it('takes undefined for every optional option of every exported option type (test/consumer-types/undefined-options.ts)', () => {
    expect(errorsOf('undefined-options.ts')).toBe('')
  })
})
