import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FIELD_LIST_PATTERN, MAX_FIELDS, parseFieldList, pickFields } from './field-filter.js'

describe('parseFieldList', () => {
  it('trims and de-duplicates names, in order', () => {
    expect(parseFieldList(' title ,owner,title')).toEqual(['title', 'owner'])
  })

  it('refuses empty names and too many names', () => {
    for (const text of ['', ',', 'a,', ',a', 'a,,b', 'a, ,b']) expect(typeof parseFieldList(text), JSON.stringify(text)).toBe('string')
    const names = (count: number) => Array.from({ length: count }, (_, index) => `f${index}`).join(',')
    expect(parseFieldList(names(MAX_FIELDS))).toHaveLength(MAX_FIELDS)
    expect(parseFieldList(names(MAX_FIELDS + 1))).toMatch(/at most 100/)
  })
})

describe('pickFields', () => {
  const resource = { id: 7, title: 'T', owner: 'ada', nested: { a: 1 } }

  it('keeps id and the named own fields only', () => {
    expect(pickFields(resource, ['nested', 'nope', 'toString', 'constructor', '__proto__'])).toEqual({ id: 7, nested: { a: 1 } })
    expect(pickFields(resource, ['id'])).toEqual({ id: 7 })
    expect(Object.keys(pickFields(resource, ['owner', 'title']))).toEqual(['id', 'owner', 'title'])
  })

  it('returns the whole resource without a list', () => {
    expect(pickFields(resource, undefined)).toBe(resource)
  })
})

describe('FIELD_LIST_PATTERN: the document says what parseFieldList accepts', () => {
  const names = fc.array(fc.oneof(fc.constantFrom('', ' ', ' a ', 'title', '\t', 'x y', 'é'), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: MAX_FIELDS + 2 })

  it('matches exactly the lists parseFieldList accepts', () => {
    fc.assert(
      fc.property(names, (list) => {
        const text = list.join(',')
        return FIELD_LIST_PATTERN.test(text) === Array.isArray(parseFieldList(text))
      }),
      { seed: 21, numRuns: 2000 },
    )
  })
})
