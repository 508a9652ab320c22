import { describe, expect, it } from 'vitest'
import { sameJson } from './same-json.js'

describe('sameJson', () => {
  it('compares nested objects and arrays by value, whatever the key order', () => {
    expect(sameJson({ a: [1, { b: 'x', c: null }], d: true }, { d: true, a: [1, { c: null, b: 'x' }] })).toBe(true)
  })

  it('sees a changed, added or removed field at any depth', () => {
    const base = { users: [{ id: '1', tags: ['a'] }] }
    expect(sameJson(base, { users: [{ id: '1', tags: ['b'] }] })).toBe(false)
    expect(sameJson(base, { users: [{ id: '1', tags: ['a'], extra: 0 }] })).toBe(false)
    expect(sameJson(base, { users: [{ tags: ['a'] }] })).toBe(false)
    expect(
      sameJson(base, {
        users: [
          { id: '1', tags: ['a'] },
          { id: '2', tags: [] },
        ],
      }),
    ).toBe(false)
  })

  it('tells arrays from objects and null from an object, and treats an undefined field as missing', () => {
    expect(sameJson([], {})).toBe(false)
    expect(sameJson(null, {})).toBe(false)
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true)
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(true)
    expect(sameJson(0, '0')).toBe(false)
  })
})
