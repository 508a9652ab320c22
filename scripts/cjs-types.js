// Writes a CommonJS twin (.d.cts) of every declaration file in dist/src, for
// the package's `require` export condition. A CommonJS consumer (`"type":
// "commonjs"`, module NodeNext) reads these, so `import ... from 'msw'` in our
// types resolves to msw's CommonJS types, the ones the consumer's own
// `msw/node` import gets; one identity of RequestHandler, so
// `setupServer(...sim.handlers)` type-checks. The runtime is the one ESM build
// for both (require() of ESM, Node >= 20.19). Why: docs/internals.md.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('../dist/src/', import.meta.url).pathname
/** `from './x.js'`, `import('../y.js')`: relative specifiers, to their .cjs twins. */
const RELATIVE = /((?:from\s+|import\s*\(\s*)(['"]))(\.{1,2}\/[^'"]*?)\.js\2/g

let count = 0
for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue
  const file = join(entry.parentPath, entry.name)
  const text = readFileSync(file, 'utf8')
    .replace(RELATIVE, (_, head, quote, path) => `${head}${path}.cjs${quote}`)
    .replace(/\/\/# sourceMappingURL=.*$/m, '')
  writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), text)
  count++
}
if (count === 0) throw new Error('cjs-types: no declaration files in dist/src (run tsc first)')
