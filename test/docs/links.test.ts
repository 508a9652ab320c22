/**
 * Every relative link of README.md and docs/*.md leads somewhere: the file
 * exists, and an `#anchor` names a heading of it (GitHub's slugs). Links to
 * the web are not followed (no network in tests).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Token, type Tokens, marked } from 'marked'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const token of marked.lexer(markdown)) {
    if (token.type !== 'heading') continue
    const base = slug((token as Tokens.Heading).text.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'))
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  for (const match of markdown.matchAll(/<a (?:id|name)="([^"]+)"/g)) anchors.add(match[1]!)
  return anchors
}

function linksOf(tokens: Token[], into: string[] = []): string[] {
  for (const token of tokens) {
    if (token.type === 'link') into.push((token as Tokens.Link).href)
    const nested = (token as { tokens?: Token[] }).tokens
    if (nested) linksOf(nested, into)
    const items = (token as Partial<Tokens.List>).items
    if (items) for (const item of items) linksOf(item.tokens, into)
    const rows = (token as Partial<Tokens.Table>).rows
    if (rows) for (const row of rows) for (const cell of row) linksOf(cell.tokens, into)
    const header = (token as Partial<Tokens.Table>).header
    if (header) for (const cell of header) linksOf(cell.tokens, into)
  }
  return into
}

describe.each(DOCUMENTS)('%s', (document) => {
  it('every relative link leads to a file, and every #anchor to a heading', () => {
    const markdown = readFileSync(join(ROOT, document), 'utf8')
    const broken: string[] = []
    for (const href of linksOf(marked.lexer(markdown))) {
      if (/^[a-z]+:/i.test(href)) continue
      const [path = '', anchor] = href.split('#')
      const target = path ? join(ROOT, dirname(document), decodeURIComponent(path)) : join(ROOT, document)
      if (!existsSync(target)) {
        broken.push(`${href}: no such file`)
        continue
      }
      if (anchor && statSync(target).isFile() && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${href}: no heading with that anchor`)
    }
    expect(broken).toEqual([])
  })
})
