// The API reports (docs/api-report.md): one api/<name>.api.md per entry of
// package.json "exports" that has types, made by API Extractor from the built
// declarations (dist/src/**/index.d.ts, `npm run build`) with api-extractor.json.
//
//   node scripts/api-report.js            check: exit 1 when a report differs (npm run api:check)
//   node scripts/api-report.js --update   rewrite the reports (npm run api:report)
//
// Options: --dist <dir> reads the declarations from <dir> in place of dist/ (the
// same layout, <dir>/src/index.d.ts ...; a folder inside the repository, e.g.
// test-output/api-dts, so that msw, zod ... resolve from its node_modules); --reports <dir>
// compares with (or writes) the reports in <dir> in place of api/; --entry
// <specifier> (repeatable, e.g. multi-area-mock/vitest) handles only that entry.
import { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import ts from 'typescript'

const root = resolve(import.meta.dirname, '..')
const { values: args } = parseArgs({
  options: {
    update: { type: 'boolean', default: false },
    dist: { type: 'string' },
    reports: { type: 'string' },
    entry: { type: 'string', multiple: true },
  },
})
const reportsDir = resolve(args.reports ?? join(root, 'api'))
const distDir = resolve(args.dist ?? join(root, 'dist'))
const configPath = join(root, 'api-extractor.json')
const packageJsonPath = join(root, 'package.json')
const pkg = JSON.parse(readFileSync(packageJsonPath, 'utf8'))
const show = (path) => relative(process.cwd(), path) || '.'

/** Every entry of "exports" with types: `multi-area-mock/node` → dist/src/node/index.d.ts → api/multi-area-mock-node.api.md. */
const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'object' && typeof target.types === 'string')
  .map(([subpath, target]) => {
    const suffix = subpath === '.' ? '' : subpath.slice(2)
    const types = target.types.replace(/^\.\/dist\//, '')
    if (types === target.types) throw new Error(`api-report: the types of "${subpath}" (${target.types}) are not under ./dist/`)
    return {
      specifier: suffix ? `${pkg.name}/${suffix}` : pkg.name,
      dts: join(distDir, types),
      reportName: suffix ? `${pkg.name}-${suffix.replaceAll('/', '-')}` : pkg.name,
    }
  })
  .filter((entry) => !args.entry || args.entry.includes(entry.specifier))
  .sort((a, b) => (a.reportName < b.reportName ? -1 : 1))
for (const name of args.entry ?? []) {
  if (!entries.some((entry) => entry.specifier === name)) {
    console.error(`api-report: no entry ${name} with types in package.json "exports".`)
    process.exit(2)
  }
}

const missing = entries.filter((entry) => !existsSync(entry.dts))
if (missing.length > 0) {
  for (const entry of missing) console.error(`api-report: ${show(entry.dts)} is missing (the declarations of ${entry.specifier}): run \`npm run build\` first.`)
  process.exit(2)
}

// Writing reports from declarations older than src/ would commit the old surface.
if (args.update) {
  const built = Math.min(...entries.map((entry) => statSync(entry.dts).mtimeMs))
  const newer = readdirSync(join(root, 'src'), { recursive: true })
    .filter((name) => name.endsWith('.ts') && !/\.(test|contract)\.ts$/.test(name) && !name.startsWith('inspector'))
    .find((name) => statSync(join(root, 'src', name)).mtimeMs > built)
  if (newer) console.warn(`api-report: warning: src/${newer} changed after the declarations were built: run \`npm run build\` first, or the reports show the older build.`)
}

const temp = mkdtempSync(join(tmpdir(), 'api-report-'))
let failed = false
try {
  const base = ExtractorConfig.loadFile(configPath)
  const configs = entries.map((entry) =>
    ExtractorConfig.prepare({
      configObject: {
        ...base,
        projectFolder: root,
        mainEntryPointFilePath: entry.dts,
        compiler: { ...base.compiler, overrideTsconfig: { ...base.compiler.overrideTsconfig, files: entries.map((each) => each.dts) } },
        // Written to a temporary folder and compared here, so the check never writes api/.
        apiReport: { ...base.apiReport, reportFileName: entry.reportName, reportFolder: temp, reportTempFolder: temp },
      },
      configObjectFullPath: configPath,
      packageJsonFullPath: packageJsonPath,
    }),
  )
  // One TypeScript program for all entries (each entry alone would load msw, zod ... again).
  const compilerState = CompilerState.create(configs[0], {
    additionalEntryPoints: configs.map((config) => config.mainEntryPointFilePath),
  })

  const produced = new Set()
  for (const [index, entry] of entries.entries()) {
    const problems = []
    const result = Extractor.invoke(configs[index], {
      localBuild: true,
      compilerState,
      messageCallback(message) {
        if (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning) problems.push(message)
        message.handled = true
      },
    })
    for (const message of problems) {
      const where = message.sourceFilePath ? ` (${show(message.sourceFilePath)}:${message.sourceFileLine ?? 0})` : ''
      console.error(`api-report: ${entry.specifier}: ${message.logLevel} ${message.messageId}: ${message.text}${where}`)
    }
    if (!result.succeeded || problems.length > 0) {
      failed = true
      continue
    }
    const fileName = `${entry.reportName}.api.md`
    produced.add(fileName)
    const actual = finish(readFileSync(join(temp, fileName), 'utf8'), entry)
    const committedPath = join(reportsDir, fileName)
    const committed = existsSync(committedPath) ? readFileSync(committedPath, 'utf8').replace(/\r\n/g, '\n') : undefined
    if (committed === actual) continue
    if (args.update) {
      mkdirSync(reportsDir, { recursive: true })
      writeFileSync(committedPath, actual)
      console.log(`api-report: ${committed === undefined ? 'created' : 'updated'} ${show(committedPath)} (${entry.specifier}): review the diff.`)
    } else {
      failed = true
      const what = committed === undefined ? `has no committed report ${show(committedPath)}` : `differs from ${show(committedPath)}`
      console.error(`api-report: the public API of ${entry.specifier} ${what}: run \`npm run api:report\` and review the diff.`)
    }
  }

  // A report whose entry is gone from "exports" (all entries were looked at).
  const stale = !args.entry && existsSync(reportsDir) ? readdirSync(reportsDir).filter((name) => name.endsWith('.api.md') && !produced.has(name)) : []
  for (const name of failed ? [] : stale) {
    if (args.update) {
      unlinkSync(join(reportsDir, name))
      console.log(`api-report: removed ${show(join(reportsDir, name))} (no such entry in package.json "exports"): review the diff.`)
    } else {
      failed = true
      console.error(`api-report: ${show(join(reportsDir, name))} has no entry in package.json "exports": run \`npm run api:report\` and review the diff.`)
    }
  }
} finally {
  rmSync(temp, { recursive: true, force: true })
}

/**
 * API Extractor's report, made independent of where and how the declarations
 * were built, plus what it leaves out:
 * - the title names the entry (`multi-area-mock/node`), not only the package;
 * - the warnings it could not put next to a declaration name their file as
 *   `src/areas/area.d.ts` (relative to the build folder), without line and column,
 *   so a comment added in src/ does not change the report;
 * - `declare module` and `declare global` blocks (the vitest entry's matcher
 *   type, added to vitest's `Matchers`), which API Extractor does not report,
 *   from the entry's declaration file and the ones of this package it imports.
 */
function finish(report, entry) {
  let text = report.replace(/^## API Report File for ".*"$/m, `## API Report File for "${entry.specifier}"`)
  text = text.replace(/^\/\/ (\S+?\.d\.[cm]?ts):\d+:\d+ - \(/gm, (_, file) => `// ${relative(distDir, resolve(root, file)).replaceAll('\\', '/')} - (`)
  const augmentations = moduleAugmentations(entry.dts)
  if (augmentations.length === 0) return text
  const blocks = augmentations.map(({ file, code }) => `// ${relative(distDir, file).replaceAll('\\', '/')}\n${code}\n`).join('\n')
  return (
    `${text.trimEnd()}\n\n## Module augmentations\n\n` +
    '> Not reported by API Extractor: added by scripts/api-report.js from the declaration files of this entry.\n\n' +
    `\`\`\`ts\n${blocks}\`\`\`\n`
  )
}

/** The top-level `declare module '…'` / `declare global` blocks of a declaration file and of the relative imports it reaches. */
function moduleAugmentations(entryFile) {
  const found = []
  const seen = new Set()
  const queue = [entryFile]
  while (queue.length > 0) {
    const file = queue.shift()
    if (seen.has(file) || !existsSync(file)) continue
    seen.add(file)
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    for (const statement of source.statements) {
      if (ts.isModuleDeclaration(statement) && (ts.isStringLiteral(statement.name) || statement.name.text === 'global')) {
        found.push({ file, code: statement.getText(source) })
      }
      const specifier = ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement.moduleSpecifier : undefined
      if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
        queue.push(resolve(dirname(file), specifier.text.replace(/\.js$/, '.d.ts')))
      }
    }
  }
  return found.sort((a, b) => (a.file === b.file ? 0 : a.file < b.file ? -1 : 1))
}

if (failed) process.exit(1)
if (!args.update) console.log(`api-report: the public API of ${entries.length === 1 ? entries[0].specifier : `all ${entries.length} entries`} matches ${show(reportsDir)}/.`)
