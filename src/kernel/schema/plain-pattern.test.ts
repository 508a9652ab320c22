import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { plainPattern } from './plain-pattern.js'

describe('plainPattern', () => {
  it('drops the escape before a slash, which JSON Schema patterns do not need', () => {
    expect(/^\//.source).toBe('^\\/')
    expect(plainPattern(/^\//.source)).toBe('^/')
    expect(plainPattern(/^\/api\/v[12]\/[^/]+$/.source)).toBe('^/api/v[12]/[^/]+$')
  })

  it('keeps every other escape, an escaped backslash before a slash included', () => {
    expect(plainPattern(String.raw`^\d+\.\s*\\/x$`)).toBe(String.raw`^\d+\.\s*\\/x$`)
    expect(plainPattern(String.raw`^\\\/$`)).toBe(String.raw`^\\/$`)
    expect(plainPattern(String.raw`[\]\-]`)).toBe(String.raw`[\]\-]`)
  })

  it('matches exactly what the regular expression matches', () => {
    for (const regex of [/^\//, /^\/a\/b$/, /^[/x]+$/, /^\\\/$/]) {
      const plain = new RegExp(plainPattern(regex.source), 'u')
      for (const text of ['/', '/a/b', 'x/x', '\\/', 'a', '']) expect(plain.test(text), `${regex} on ${text}`).toBe(regex.test(text))
    }
  })

  it('gives a pattern as zod writes it for the document', () => {
    const schema = z.toJSONSchema(z.string().regex(/^\//)) as { pattern: string }
    expect(plainPattern(schema.pattern)).toBe('^/')
  })
})
