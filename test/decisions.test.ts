/**
 * Every decision number the repository cites, as in `(D11)`, resolves to a
 * heading of docs/decisions.md, and nothing points at files outside the
 * repository. Files are found with git (tracked, plus new files not ignored),
 * so a file another branch adds is covered as soon as it exists; the OpenAPI
 * document is generated in-process and checked too, since its descriptions
 * and error texts are what users read.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../src/index.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SELF = relative(ROOT, fileURLToPath(import.meta.url))
const DECISIONS = 'docs/decisions.md'

/** A decision reference: `D` and a number, not part of a longer word or hex string. */
const REFERENCE = /(?<![A-Za-z0-9_$])D(\d{1,3})(?![A-Za-z0-9_])/g
/** `## D7 — Title`, the form of every decision heading. */
const HEADING = /^## D(\d+) — \S/
/** Files whose text is data, not prose (seeded names, hashes, locked versions). */
const NOT_PROSE = [/^fixtures\//, /(^|\/)package-lock\.json$/, /\.(png|jpe?g|gif|ico|woff2?|gz|tgz|zip)$/]

/** Files of the repository: tracked ones and new ones git does not ignore. */
function repositoryFiles(): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    return [...new Set(out.split('\0').filter(Boolean))].filter((file) => isFile(join(ROOT, file)))
  } catch {
    return walk('')
  }
}

/** Without git (an unpacked tarball): every file but dependencies and build output. */
function walk(dir: string): string[] {
  const skip = new Set(['.git', 'node_modules', 'dist', 'test-output', 'node24'])
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name
    if (entry.isDirectory()) return skip.has(entry.name) ? [] : walk(path)
    return entry.isFile() ? [path] : []
  })
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false // deleted but still in the index
  }
}

function text(file: string): string | undefined {
  const bytes = readFileSync(join(ROOT, file))
  return bytes.includes(0) ? undefined : bytes.toString('utf8')
}

/** The decision numbers docs/decisions.md has a heading for, and what is wrong with its headings. */
function decisionHeadings(): { headings: Map<number, string>; problems: string[] } {
  const lines = readFileSync(join(ROOT, DECISIONS), 'utf8').split('\n')
  const headings = new Map<number, string>()
  const problems: string[] = []
  lines.forEach((line, index) => {
    if (line.startsWith('## D') && !HEADING.test(line)) problems.push(`${DECISIONS}:${index + 1}: "${line}" is not of the form "## D7 — Title"`)
    const match = HEADING.exec(line)
    if (!match) return
    const id = Number(match[1])
    if (headings.has(id)) problems.push(`${DECISIONS}:${index + 1}: a second heading for D${id}`)
    if (lines[index - 1] !== `<a id="d${id}"></a>`) problems.push(`${DECISIONS}:${index + 1}: the line before "${line}" must be <a id="d${id}"></a>`)
    headings.set(id, line)
  })
  return { headings, problems }
}

/** `file:line: Dn` for each reference in `content` without a heading. */
function unresolved(file: string, content: string, known: Map<number, string>): string[] {
  const problems: string[] = []
  content.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(REFERENCE)) {
      if (!known.has(Number(match[1]))) problems.push(`${file}:${index + 1}: D${match[1]} has no heading in ${DECISIONS}`)
    }
  })
  return problems
}

/** Every string in a JSON value, with its JSON pointer. */
function* strings(value: unknown, pointer = ''): Generator<[string, string]> {
  if (typeof value === 'string') yield [pointer, value]
  else if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* strings(item, `${pointer}/${index}`)
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      yield* strings(key, `${pointer}/${key} (key)`)
      yield* strings(item, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`)
    }
  }
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to `-`, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    if (fenced) continue
    for (const match of line.matchAll(/<a id="([^"]+)"><\/a>/g)) anchors.add(match[1]!)
    const heading = /^#{1,6} (.+)$/.exec(line)
    if (!heading) continue
    const slug = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replaceAll(' ', '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

describe('decisions (docs/decisions.md)', () => {
  const files = repositoryFiles()
  const { headings: known, problems: headingProblems } = decisionHeadings()

  it('has one heading per decision, D1 to D27 at least, numbered without gaps, each with its anchor', () => {
    expect(headingProblems).toEqual([])
    const ids = [...known.keys()].sort((a, b) => a - b)
    expect(ids.length).toBeGreaterThanOrEqual(27)
    expect(ids).toEqual(ids.map((_, index) => index + 1))
  })

  it('resolves every decision reference in the repository to a heading', () => {
    const scanned = files.filter((file) => !NOT_PROSE.some((pattern) => pattern.test(file)))
    // The places users read decisions in must be among the files scanned.
    for (const expected of ['README.md', DECISIONS, 'docs/behaviour.md', 'bench/README.md', 'scenarios/default.json', 'src/index.ts']) {
      expect(scanned, `${expected} is not scanned`).toContain(expected)
    }
    const problems = scanned.flatMap((file) => {
      const content = text(file)
      return content === undefined ? [] : unresolved(file, content, known)
    })
    expect(problems).toEqual([])
  })

  it('resolves every decision reference in the generated OpenAPI document', async () => {
    const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z', root: ['admin'] })
    const doc = await sim.openapi({ origin: 'http://127.0.0.1:4000' })
    const problems: string[] = []
    let references = 0
    for (const [pointer, value] of strings(doc)) {
      for (const match of value.matchAll(REFERENCE)) {
        references++
        if (!known.has(Number(match[1]))) problems.push(`openapi.json#${pointer}: D${match[1]} has no heading in ${DECISIONS}`)
      }
    }
    expect(problems).toEqual([])
    // The document does cite decisions, so this check is not vacuous.
    expect(references).toBeGreaterThan(10)
  })

  it('links only to anchors and files that exist', () => {
    const markdown = readFileSync(join(ROOT, DECISIONS), 'utf8')
    const problems: string[] = []
    for (const match of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!
      if (/^[a-z]+:/.test(target)) continue
      const [path, anchor] = target.split('#') as [string, string | undefined]
      const file = path === '' ? DECISIONS : relative(ROOT, join(ROOT, 'docs', path))
      if (!isFile(join(ROOT, file))) {
        problems.push(`${target}: no file ${file}`)
        continue
      }
      if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(readFileSync(join(ROOT, file), 'utf8')).has(anchor)) {
        problems.push(`${target}: no heading #${anchor} in ${file}`)
      }
    }
    expect(problems).toEqual([])
  })
})

describe('nothing refers to files outside the repository', () => {
  it('has no path into the shared folder beside the repository', () => {
    const outside = ['../shared', 'shared/spec']
    const problems = repositoryFiles()
      .filter((file) => file !== SELF)
      .flatMap((file) => {
        const content = text(file)
        if (content === undefined) return []
        return content.split('\n').flatMap((line, index) => (outside.some((needle) => line.includes(needle)) ? [`${file}:${index + 1}: ${line.trim()}`] : []))
      })
    expect(problems).toEqual([])
  })
})
