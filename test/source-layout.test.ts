/**
 * Checks of the source layout, run by `npm test`: no file under `src/` is
 * longer than 300 lines (tests aside), and no module imports itself through
 * others, type-only imports included (a cycle makes modules hard to read and
 * to change apart, and the order they load in surprising).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const SRC = join(ROOT, 'src')
const MAX_LINES = 300

/** Every `.ts` file under `dir`, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

const isTest = (file: string) => file.endsWith('.test.ts')

/** The relative `.ts` modules a file imports or re-exports (`import type` included). */
function importsOf(file: string, text: string): string[] {
  const found: string[] = []
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.[^'"]+)['"]|\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
    const specifier = match[1] ?? match[2]!
    if (specifier.endsWith('.js')) found.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')))
  }
  return found
}

/** The cycles of an import graph: its strongly connected components with more than one module, or a module importing itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string): void => {
    index.set(node, next)
    low.set(node, next++)
    stack.push(node)
    onStack.add(node)
    for (const to of graph.get(node) ?? []) {
      if (!graph.has(to)) continue
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node)!, low.get(to)!))
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || graph.get(node)!.includes(node)) found.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

describe('the source layout', () => {
  const files = sourceFiles(SRC)
  const texts = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]))

  it(`has no file under src/ over ${MAX_LINES} lines (tests aside)`, () => {
    const long = files
      .filter((file) => !isTest(file))
      .map((file) => ({ file: relative(ROOT, file), lines: texts.get(file)!.split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
    expect(long).toEqual([])
  })

  it('has no import cycle, type-only imports included', () => {
    const graph = new Map(files.map((file) => [file, importsOf(file, texts.get(file)!)]))
    expect(cycles(graph).map((component) => component.map((file) => relative(ROOT, file)))).toEqual([])
  })

  it('finds the imports and cycles it is meant to find', () => {
    const from = join(SRC, 'a.ts')
    expect(importsOf(from, "import type { X } from './b.js'\nexport { y } from '../c.js'\nconst z = await import('./d.js')\nimport * as zod from 'zod'")).toEqual([
      join(SRC, 'b.ts'),
      join(ROOT, 'c.ts'),
      join(SRC, 'd.ts'),
    ])
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['d']],
      ['e', ['a']],
    ])
    expect(cycles(graph)).toEqual([['a', 'b', 'c'], ['d']])
  })
})
