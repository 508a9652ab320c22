import { describe, expect, it } from 'vitest'
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js'

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`

describe('nestsDeeperThan', () => {
  it('counts arrays and objects alike, and stops at the first level past the limit', () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false)
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true)
    expect(nestsDeeperThan(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`, MAX_JSON_DEPTH)).toBe(true)
    expect(nestsDeeperThan(nested(100_000), MAX_JSON_DEPTH)).toBe(true)
  })

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ text: '['.repeat(500), quoted: '"[[[[', more: '\\"{{{{' })
    expect(nestsDeeperThan(text, 2)).toBe(false)
  })

  it('reads wide documents as shallow', () => {
    expect(nestsDeeperThan(JSON.stringify(Array.from({ length: 10_000 }, (_, i) => ({ i, tags: [i] }))), 3)).toBe(false)
  })
})
