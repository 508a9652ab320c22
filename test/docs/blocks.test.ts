/** The doc tests' reading of Markdown and shell blocks (docs/doc-tests.md). */
import { describe, expect, it } from 'vitest'
import { extractBlocks } from './support/blocks.js'
import { expectedStatuses, mapPort, statusMatches } from './support/shell.js'

const fence = '```'

describe('extractBlocks', () => {
  it('finds every fenced block, in lists too, with its line, language and directive', () => {
    const markdown = [
      '# Title', // 1
      '', // 2
      '<!-- doc-test: server --scenario entangled-pairs -->', // 3
      `${fence}sh`, // 4
      'curl http://127.0.0.1:4000/quantum/v1/status', // 5
      fence, // 6
      '', // 7
      '- an item', // 8
      '', // 9
      `  ${fence}ts`, // 10
      '  const a: number = 1', // 11
      `  ${fence}`, // 12
      '', // 13
      `${fence}text`, // 14
      'output', // 15
      fence, // 16
    ].join('\n')
    const blocks = extractBlocks('doc.md', markdown)
    expect(blocks.map((block) => [block.line, block.lang, block.kind])).toEqual([
      [4, 'sh', 'shell'],
      [10, 'ts', 'typescript'],
      [14, 'text', 'not-run'],
    ])
    expect(blocks[0]!.serverFlags).toEqual(['--scenario', 'entangled-pairs'])
    expect(blocks[1]!.code).toBe('const a: number = 1')
    expect(blocks[1]!.serverFlags).toEqual([])
  })

  it('a directive applies to the next block only', () => {
    const markdown = ['<!-- doc-test: browser -->', `${fence}ts`, 'a()', fence, '', `${fence}ts`, 'b()', fence].join('\n')
    expect(extractBlocks('doc.md', markdown).map((block) => block.browser)).toEqual([true, false])
  })

  it('refuses a block it cannot run, so none is skipped by accident', () => {
    expect(() => extractBlocks('doc.md', `${fence}yaml\na: 1\n${fence}`)).toThrow(/doc\.md:1: a ```yaml block/)
    expect(() => extractBlocks('doc.md', `${fence}\nsomething\n${fence}`)).toThrow(/no language/)
    expect(() => extractBlocks('doc.md', `<!-- doc-test: skip -->\n${fence}sh\nls\n${fence}`)).toThrow(/needs a reason/)
    expect(() => extractBlocks('doc.md', `<!-- doc-test: sometimes -->\n${fence}sh\nls\n${fence}`)).toThrow(/unknown doc-test directive/)
  })

  it('skip with a reason: not run, any language', () => {
    const [block] = extractBlocks('doc.md', `<!-- doc-test: skip needs the network -->\n${fence}yaml\na: 1\n${fence}`)
    expect(block).toMatchObject({ kind: 'not-run', skip: 'needs the network' })
  })
})

describe('shell blocks', () => {
  it('expects a 2xx of every curl, unless its line says which status', () => {
    const code = [
      "NAME=$(curl -s 'http://127.0.0.1:4000/admin/api/v1.2/users?limit=1' | jq -r '.[0].username')",
      "curl -X POST http://127.0.0.1:4000/admin/api/v1.2/users -H 'content-type: application/json' \\",
      "  -d '{}'   # 400 validation_failed",
      '# {"status":"ok"}',
      'curl http://127.0.0.1:4000/nothing   # 404',
      'curl http://127.0.0.1:4000/__mock/health   # {"status":"ok"}',
    ].join('\n')
    expect(expectedStatuses(code)).toEqual(['2xx', '400', '404', '2xx'])
  })

  it('rewrites only the docs port', () => {
    expect(mapPort("curl localhost:4000/a http://127.0.0.1:4000/b 'x:40000'", 51234)).toBe("curl 127.0.0.1:51234/a http://127.0.0.1:51234/b 'x:40000'")
  })

  it('matches statuses', () => {
    expect(statusMatches('201', '2xx')).toBe(true)
    expect(statusMatches('503', '2xx')).toBe(false)
    expect(statusMatches('000', '2xx')).toBe(false)
    expect(statusMatches('404', '404')).toBe(true)
  })
})
