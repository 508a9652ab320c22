// `npm run build` step after tsc: the declarations the package ships.
//
// 1. Only those a user's compiler can reach: tsc writes a .d.ts for every file
//    of src/ (the CLI's, internal helpers'), and a file that no entry's
//    declarations import is never read by a user, only packed. TypeScript's
//    own module resolution, from the entries of package.json "exports", says
//    which ones are reached; the others are removed.
// 2. A CommonJS twin (.d.cts) of each, for the package's `require` export
//    condition. A CommonJS consumer (`"type": "commonjs"`, module NodeNext)
//    reads these, so `import ... from 'msw'` in our types resolves to msw's
//    CommonJS types, the ones the consumer's own `msw/node` import gets; one
//    identity of RequestHandler, so `setupServer(...sim.handlers)` type-checks.
//    The runtime is the one ESM build for both (require() of ESM, Node >= 20.19).
//    Why: docs/internals.md.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import ts from 'typescript'

const root = resolve(import.meta.dirname, '..')
const dist = join(root, 'dist', 'src')
/** `from './x.js'`, `import('../y.js')`: relative specifiers, to their .cjs twins. */
const RELATIVE = /((?:from\s+|import\s*\(\s*)(['"]))(\.{1,2}\/[^'"]*?)\.js\2/g

const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const entries = Object.values(exports)
  .map((target) => (typeof target === 'object' ? target.types : undefined))
  .filter((types) => typeof types === 'string')
  .map((types) => join(root, types))
const program = ts.createProgram(entries, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  noEmit: true,
  skipLibCheck: true,
  types: [],
})
const reached = new Set(program.getSourceFiles().map((file) => resolve(file.fileName)))
for (const entry of entries) if (!reached.has(entry)) throw new Error(`cjs-types: ${entry} is missing (run tsc first)`)

// Twins from an earlier build go first: each is written again from its .d.ts.
const files = readdirSync(dist, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && /\.d\.c?ts$/.test(entry.name))
for (const entry of files) if (entry.name.endsWith('.d.cts')) rmSync(join(entry.parentPath, entry.name))
for (const entry of files) {
  if (!entry.name.endsWith('.d.ts')) continue
  const file = join(entry.parentPath, entry.name)
  if (!reached.has(file)) {
    rmSync(file)
    continue
  }
  const text = readFileSync(file, 'utf8')
    .replace(RELATIVE, (_, head, quote, path) => `${head}${path}.cjs${quote}`)
    .replace(/\/\/# sourceMappingURL=.*$/m, '')
  writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), text)
}
