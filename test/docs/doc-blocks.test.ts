/**
 * Every code block of README.md and docs/*.md runs as written (the convention:
 * docs/doc-tests.md). The package is packed once (`npm pack`; `npm test` has
 * built it) and installed into three fresh projects: ES modules with module
 * NodeNext, CommonJS with module NodeNext, and an app with moduleResolution
 * Bundler. TypeScript blocks are type-checked strictly there with the
 * project's TypeScript and the current one (7), then run with vitest;
 * JavaScript blocks run with node; shell blocks run with bash against the
 * packed CLI server on a free port; scenario files are loaded by it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DocBlock, blocksOf } from './support/blocks.js'
import { type Consumer, type ConsumerKind, type Diagnostic, type FileResult, makeConsumer, pack, typecheck, vitest } from './support/consumers.js'
import { FRESH_SERVER_NOTE, freshnessNeeded } from './support/fresh-server.js'
import { cleanEnv, curlWrapper, expectBlockRan, mapPort, runShell, startServer } from './support/shell.js'
import { typescript7 } from './support/typescript7.js'
import { runInBrowser } from './support/browser-block.js'
import { requireChromium } from '../support/chromium.js'
import ts from 'typescript'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
]
const blocks = blocksOf(ROOT, DOCUMENTS)
const KINDS: ConsumerKind[] = ['esm', 'cjs', 'bundler']
const work = mkdtempSync(join(tmpdir(), 'multi-area-mock-doc-tests-'))
/** Per block: a server start, a few requests or a browser, on a machine that may be busy with the rest of the suite. */
const BLOCK_TIMEOUT = 90_000

let consumers: Record<ConsumerKind, Consumer>
/** Compiler name → project kind → diagnostics. */
const diagnostics = new Map<string, Map<ConsumerKind, Diagnostic[]>>()
const results = new Map<ConsumerKind, Map<string, FileResult>>()
let env: NodeJS.ProcessEnv

/** The file a TypeScript block becomes in a project, and whether vitest runs it. */
function fileOf(block: DocBlock): { base: string; test: boolean } {
  const base = `blocks/${block.file.replace(/\.md$/, '').replace(/\W+/g, '-').toLowerCase()}-L${block.line}`
  return { base, test: /from\s+['"]vitest['"]/.test(block.code) }
}

/** The projects a TypeScript block belongs in: app code for the browser only in the bundler one, top-level await not in CommonJS. */
function kindsOf(block: DocBlock): ConsumerKind[] {
  if (block.browser) return ['bundler']
  return block.esmOnly ? ['esm', 'bundler'] : KINDS
}

/**
 * A block's syntax errors. tsc reports no type error at all while any file has
 * one, so a block that does not parse stays out of the projects and fails alone.
 */
function syntaxErrors(block: DocBlock): string {
  const { diagnostics = [] } = ts.transpileModule(block.code, { reportDiagnostics: true, fileName: 'block.ts' })
  return diagnostics.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')).join('\n')
}

function writeBlocks(consumer: Consumer): void {
  for (const block of blocks) {
    if (block.kind !== 'typescript' || !kindsOf(block).includes(consumer.kind) || syntaxErrors(block)) continue
    const { base, test } = fileOf(block)
    const path = join(consumer.dir, base)
    mkdirSync(dirname(path), { recursive: true })
    if (test) {
      writeFileSync(`${path}.test.ts`, block.code)
    } else {
      writeFileSync(`${path}.ts`, block.code)
      // A module that is not a test file runs by being imported, once; app code for the browser only type-checks.
      if (!block.browser) writeFileSync(`${path}.run.test.ts`, `import { test } from 'vitest'\n\ntest('runs', async () => {\n  await import('./${base.split('/').pop()}.js')\n})\n`)
    }
  }
}

beforeAll(async () => {
  const started = performance.now()
  const tarball = pack()
  const packed = performance.now()
  const entries = await Promise.all(KINDS.map(async (kind) => [kind, await makeConsumer(kind, join(work, kind), tarball, join(ROOT, 'node_modules'))] as const))
  consumers = Object.fromEntries(entries) as Record<ConsumerKind, Consumer>
  for (const consumer of Object.values(consumers)) writeBlocks(consumer)
  env = cleanEnv({ PATH: `${curlWrapper(join(work, 'bin'))}:${join(consumers.esm.dir, 'node_modules/.bin')}:${process.env.PATH ?? ''}` })

  const compilers: [string, string][] = [['TypeScript 5.9 (the project’s)', join(ROOT, 'node_modules/typescript/bin/tsc')]]
  const seven = await typescript7(ROOT)
  if (seven) compilers.push(['TypeScript 7 (current)', seven])
  for (const [name] of compilers) diagnostics.set(name, new Map())
  // One compiler at a time: the machines running this have two cores.
  for (const [name, tsc] of compilers) for (const kind of KINDS) diagnostics.get(name)!.set(kind, await typecheck(consumers[kind], tsc))
  // Our declarations with skipLibCheck off check every package they import: the native compiler does it in a fifth of the time.
  const [declarationsName, declarationsTsc] = compilers[compilers.length - 1]!
  for (const kind of KINDS)
    diagnostics
      .get(declarationsName)!
      .get(kind)!
      .push(...(await typecheck(consumers[kind], declarationsTsc, 'tsconfig.declarations.json')))
  const checked = performance.now()
  for (const kind of KINDS) results.set(kind, await vitest(consumers[kind]))
  console.log(
    `doc tests: ${blocks.length} blocks in ${DOCUMENTS.length} documents; npm pack ${ms(packed - started)}, projects and type-checks ${ms(checked - packed)}, vitest in 3 projects ${ms(performance.now() - checked)}`,
  )
}, 300_000)

afterAll(() => {
  if (!process.env.DOC_TEST_KEEP) rmSync(work, { recursive: true, force: true })
  else console.log(`doc tests: projects kept in ${work}`)
})

function ms(value: number): string {
  return `${(value / 1000).toFixed(1)} s`
}

describe('the packed package in fresh projects', () => {
  // With skipLibCheck off (tsconfig.declarations.json). Other packages' declarations
  // are theirs: msw's need the DOM library, which a Node project lacks.
  it('its own declarations type-check strictly (skipLibCheck off) in every project, with every compiler', () => {
    for (const [compiler, byKind] of diagnostics) {
      for (const [kind, list] of byKind) {
        const outside = list.filter((diagnostic) => /^(node_modules\/multi-area-mock\/|declarations\.ts|\(project\))/.test(diagnostic.file))
        expect(outside.map((diagnostic) => diagnostic.text).join('\n'), `${compiler}, ${kind} project`).toBe('')
      }
    }
  })
})

for (const document of DOCUMENTS) {
  describe(document, () => {
    const own = blocks.filter((candidate) => candidate.file === document)
    // A suite needs a test: a document with no code, or only output samples (```text), says so.
    const code = own.filter((block) => !(block.kind === 'not-run' && block.lang === 'text'))
    if (code.length === 0) it(own.length === 0 ? 'has no code blocks' : 'has output samples only', () => expect(code).toEqual([]))
    for (const block of own) {
      const name = `${block.where} (${block.lang})`
      if (block.kind === 'not-run') {
        // Output samples (```text) are not code. A code block not run on purpose must say why in a few words, usually naming the test that covers it.
        if (block.lang !== 'text') it(`${name}: not run (${block.skip})`, () => expect(String(block.skip).trim().split(/\s+/).length).toBeGreaterThanOrEqual(3))
        continue
      }
      if (block.kind === 'typescript') {
        const kinds = kindsOf(block)
        const where = block.browser ? 'the bundler project, and runs in Chromium' : `the ${kinds.join(', ')} project${kinds.length > 1 ? 's' : ''}`
        it(
          `${name} type-checks${block.browser ? ' in' : ' and runs in'} ${where}`,
          async () => {
            expect(syntaxErrors(block), 'syntax errors').toBe('')
            const { base, test } = fileOf(block)
            for (const kind of kinds) {
              for (const [compiler, byKind] of diagnostics) {
                const mine = (byKind.get(kind) ?? []).filter((diagnostic) => diagnostic.file.startsWith(`${base}.`))
                expect(mine.map((diagnostic) => diagnostic.text).join('\n'), `${compiler}, ${kind} project`).toBe('')
              }
              if (block.browser) {
                requireChromium()
                const run = await runInBrowser(consumers.bundler.dir, base.split('/').pop()!)
                expect(run.errors, 'errors in the page').toEqual([])
                expect(run.healthStatus, "fetch('/__mock/health') in the page").toBe(200)
                expect(
                  run.requests.filter((request) => request.includes('/__mock')),
                  'answered inside the browser',
                ).toEqual([])
                continue
              }
              const result = results.get(kind)?.get(test ? `${base}.test.ts` : `${base}.run.test.ts`)
              expect(result, `vitest result in the ${kind} project`).toBeDefined()
              expect(result!.message, `vitest in the ${kind} project`).toBe('')
              expect(result!.passed).toBe(true)
            }
          },
          BLOCK_TIMEOUT,
        )
        continue
      }
      if (block.kind === 'javascript') {
        const commonjs = /\brequire\(/.test(block.code)
        it(
          `${name} runs with node in the ${commonjs ? 'CommonJS' : 'ES module'} project`,
          async () => {
            const consumer = commonjs ? consumers.cjs : consumers.esm
            const file = join(consumer.dir, `${fileOf(block).base}.${commonjs ? 'cjs' : 'mjs'}`)
            writeFileSync(file, block.code)
            const result = await runShell(`node ${JSON.stringify(file)}`, consumer.dir, env, 30_000)
            expect(result.stderr).toBe('')
            expect(result.code, result.stdout).toBe(0)
          },
          BLOCK_TIMEOUT,
        )
        continue
      }
      if (block.kind === 'scenario') {
        it(
          `${name} is a scenario file the packed CLI loads`,
          async () => {
            const scenario = JSON.parse(block.code) as { $schema?: string }
            expect(scenario.$schema, 'a json block is a scenario file with "$schema", or is marked as not run').toMatch(/scenario\.schema\.json$/)
            const file = join(consumers.esm.dir, 'mocks', `${fileOf(block).base.split('/').pop()}.json`)
            mkdirSync(dirname(file), { recursive: true })
            writeFileSync(file, block.code)
            // The editor completes it only if "$schema" points at the installed schema.
            const schema = resolve(dirname(file), scenario.$schema!)
            expect(() => JSON.parse(readText(schema)), `"$schema" ${scenario.$schema} from ${file}`).not.toThrow()
            const server = await startServer(`multi-area-mock serve --port 0 --quiet --scenario ${JSON.stringify(file)}`, consumers.esm.dir, env)
            await server.stop()
          },
          BLOCK_TIMEOUT,
        )
        continue
      }
      it(
        `${name} runs as written against the packed CLI server`,
        async () => {
          if (block.startsServer) {
            const server = await startServer(block.code.replace(/multi-area-mock serve/g, 'multi-area-mock serve --port 0'), consumers.esm.dir, env)
            console.log(`doc tests: ${block.where}: \`${block.code.trim()}\` printed its banner ${Math.round(server.startMs)} ms after the command`)
            await server.stop()
            return
          }
          const server = await startServer(`multi-area-mock serve --port 0 --quiet ${block.serverFlags.join(' ')}`, consumers.esm.dir, env)
          try {
            const result = await runShell(mapPort(block.code, server.port), consumers.esm.dir, env)
            expectBlockRan(result, block.code, { stderr: true })
            // A reader pastes blocks one after another into one server: a block that only runs alike on a fresh one says so.
            const again = await runShell(mapPort(block.code, server.port), consumers.esm.dir, env)
            const why = freshnessNeeded(result, again, block.code)
            if (why) expect(block.code.startsWith(`${FRESH_SERVER_NOTE}\n`), `${block.where} runs otherwise a second time (${why}): start it with\n${FRESH_SERVER_NOTE}`).toBe(true)
          } finally {
            await server.stop()
          }
        },
        BLOCK_TIMEOUT,
      )
    }
  })
}

function readText(path: string): string {
  return readFileSync(path, 'utf8')
}
