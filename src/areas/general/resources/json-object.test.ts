import { describe, expect, it } from 'vitest'
import { inspectJsonObject, MAX_DATA_DEPTH } from './json-object.js'

describe('inspectJsonObject', () => {
  it('accepts plain JSON objects of any shape within the depth limit', () => {
    expect(inspectJsonObject({})).toEqual([])
    expect(inspectJsonObject(JSON.parse('{"a":[1,"x",null,true,{"b":{"c":[]}}],"d":-1.5}'))).toEqual([])
    expect(inspectJsonObject(Object.create(null))).toEqual([])
  })

  it('refuses anything but an object at the top', () => {
    for (const value of [[], 'text', 42, null, undefined, true, new Date(0)]) {
      expect(inspectJsonObject(value), String(value)).toEqual([{ path: [], message: expect.stringContaining('JSON object') }])
    }
  })

  it('finds __proto__, constructor and prototype keys at any depth, as own keys of the raw input', () => {
    const raw = JSON.parse('{"__proto__":{"x":1},"a":{"constructor":{}},"b":[{"c":{"prototype":1}}]}')
    expect(inspectJsonObject(raw).map((problem) => problem.path)).toEqual([['__proto__'], ['a', 'constructor'], ['b', 0, 'c', 'prototype']])
  })

  it('refuses values JSON cannot carry', () => {
    const problems = inspectJsonObject({ a: Number.NaN, b: Number.POSITIVE_INFINITY, c: () => 1, d: new Map(), e: undefined, f: 1n })
    expect(problems.map((problem) => problem.path)).toEqual([['a'], ['b'], ['c'], ['d'], ['e'], ['f']])
  })

  it('stops at the depth limit without recursing further', () => {
    let deep: unknown = 1
    for (let i = 0; i < 10_000; i++) deep = [deep]
    expect(inspectJsonObject({ deep })).toEqual([{ path: ['deep', ...Array(MAX_DATA_DEPTH - 1).fill(0)], message: expect.stringContaining('deeper') }])
    let ok: unknown = 1
    for (let i = 0; i < MAX_DATA_DEPTH - 1; i++) ok = [ok]
    expect(inspectJsonObject({ ok })).toEqual([])
  })

  it('lists at most 20 problems', () => {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`k${index}`, Number.NaN]))
    expect(inspectJsonObject(many)).toHaveLength(20)
  })
})
