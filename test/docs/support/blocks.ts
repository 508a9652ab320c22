/**
 * The code blocks of the documentation, as the doc tests run them. The
 * convention (docs/doc-tests.md): every fenced block runs, by its language,
 * unless it is ```text (output, samples) or an HTML comment right before it says
 * otherwise: `<!-- doc-test: skip <why> -->`, `<!-- doc-test: server <flags> -->`
 * (the CLI flags of the server a shell block talks to), `<!-- doc-test:
 * starts-server -->` (the block itself starts the server), `<!-- doc-test: esm
 * -->` (TypeScript for ES module projects only: top-level await),
 * `<!-- doc-test: browser -->` (app code for a bundler, run in Chromium).
 */
import { readFileSync } from 'node:fs'
import { type Token, type Tokens, marked } from 'marked'

/** How a block is run. */
export type BlockKind = 'typescript' | 'javascript' | 'shell' | 'scenario' | 'not-run'

export interface DocBlock {
  /** Path of the document, relative to the repository. */
  file: string
  /** Line of the opening fence (1-based). */
  line: number
  lang: string
  code: string
  kind: BlockKind
  /** Why it is not run (`text` blocks and `skip`). */
  skip?: string
  /** Flags for the server a shell block talks to (`server ...`). */
  serverFlags: string[]
  /** The shell block starts the server itself. */
  startsServer: boolean
  /** TypeScript for ES module projects only (not type-checked as CommonJS). */
  esmOnly: boolean
  /** App code for the browser: type-checked in the bundler project, with the DOM library. */
  browser: boolean
  /** `README.md:42`, for test names and messages. */
  where: string
}

const LANGUAGES: Record<string, BlockKind> = {
  ts: 'typescript',
  typescript: 'typescript',
  js: 'javascript',
  javascript: 'javascript',
  cjs: 'javascript',
  mjs: 'javascript',
  sh: 'shell',
  bash: 'shell',
  shell: 'shell',
  json: 'scenario',
  text: 'not-run',
}

const DIRECTIVE = /^<!--\s*doc-test:\s*([\s\S]*?)\s*-->\s*$/

/** Every fenced code block of a Markdown document, with its directive, in order. */
export function extractBlocks(file: string, markdown: string): DocBlock[] {
  const blocks: DocBlock[] = []
  let cursor = 0
  const walk = (tokens: Token[]) => {
    let directive: string | undefined
    for (const token of tokens) {
      if (token.type === 'html') {
        directive = DIRECTIVE.exec(token.raw.trim())?.[1]
        continue
      }
      if (token.type === 'space') continue
      if (token.type === 'code' && (token as Tokens.Code).codeBlockStyle !== 'indented') {
        const code = token as Tokens.Code
        const at = markdown.indexOf(code.raw.split('\n')[0]!, cursor)
        if (at >= 0) cursor = at + 1
        const line = markdown.slice(0, Math.max(at, 0)).split('\n').length
        blocks.push(block(file, line, code, directive))
      }
      directive = undefined
      const nested = (token as { tokens?: Token[] }).tokens
      if (nested) walk(nested)
      const items = (token as Partial<Tokens.List>).items
      if (items) for (const item of items) walk(item.tokens)
    }
  }
  walk(marked.lexer(markdown))
  return blocks
}

function block(file: string, line: number, token: Tokens.Code, directive: string | undefined): DocBlock {
  const lang = (token.lang ?? '').split(/\s+/)[0]!.toLowerCase()
  const where = `${file}:${line}`
  const words = directive?.split(/\s+/) ?? []
  const [verb, ...rest] = words
  const result: DocBlock = {
    file,
    line,
    lang,
    code: token.text,
    kind: LANGUAGES[lang] ?? 'not-run',
    serverFlags: [],
    startsServer: false,
    esmOnly: false,
    browser: false,
    where,
  }
  if (lang === 'text') result.skip = 'text'
  switch (verb) {
    case undefined:
      break
    case 'skip':
      if (rest.length === 0) throw new Error(`${where}: <!-- doc-test: skip --> needs a reason`)
      result.skip = rest.join(' ')
      break
    case 'server':
      result.serverFlags = rest
      break
    case 'starts-server':
      result.startsServer = true
      break
    case 'esm':
      result.esmOnly = true
      break
    case 'browser':
      result.browser = true
      result.esmOnly = true
      break
    default:
      throw new Error(`${where}: unknown doc-test directive "${directive}"`)
  }
  if (!(lang in LANGUAGES) && !result.skip) {
    throw new Error(
      `${where}: a \`\`\`${lang || '(no language)'} block: give it a language the doc tests run (ts, js, sh, json) or \`\`\`text, or put <!-- doc-test: skip <why> --> before it`,
    )
  }
  if (result.skip) result.kind = 'not-run'
  return result
}

/** The blocks of several documents, read from the repository root. */
export function blocksOf(root: string, files: string[]): DocBlock[] {
  return files.flatMap((file) => extractBlocks(file, readFileSync(`${root}/${file}`, 'utf8')))
}
