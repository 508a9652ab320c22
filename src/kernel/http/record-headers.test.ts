import { describe, expect, it } from 'vitest'
import { RecordHeaders } from './record-headers.js'

describe('RecordHeaders', () => {
  const headers = new RecordHeaders({ 'content-type': 'application/json', 'x-mock-world': 'w1' })

  it('reads a header by any case of its name, null when absent', () => {
    expect(headers.get('Content-Type')).toBe('application/json')
    expect(headers.get('x-mock-world')).toBe('w1')
    expect(headers.get('cookie')).toBeNull()
  })

  it('finds nothing a plain object inherits', () => {
    expect(headers.get('constructor')).toBeNull()
    expect(headers.get('__proto__')).toBeNull()
  })

  it('lists every header in the order it was given', () => {
    expect([...headers.entries()]).toEqual([
      ['content-type', 'application/json'],
      ['x-mock-world', 'w1'],
    ])
  })
})
