import { Ajv2020 } from 'ajv/dist/2020.js'
import * as z from 'zod'
import { describe, expect, it } from 'vitest'
import { toJsonSchema } from '../openapi/json-schema.js'
import { atLeastOneOf, notTogether, onlyWhen, withRules } from './object-rules.js'

const rule = withRules(z.object({ a: z.string().optional(), b: z.string().optional(), status: z.int().optional(), wait: z.int().optional() }), [
  atLeastOneOf(['a', 'b']),
  notTogether('a', 'status'),
  onlyWhen('wait', 'status', [429, 503], 'only a 429 or 503 waits'),
])

describe('object rules: one declaration for the check and the document', () => {
  const validate = new Ajv2020({ strict: false }).compile(toJsonSchema(rule, 'input'))
  const cases: Array<[string, Record<string, unknown>, boolean]> = [
    ['one of the required', { a: 'x' }, true],
    ['the other one', { b: 'x', status: 503, wait: 2 }, true],
    ['none of the required', { status: 500 }, false],
    ['an exclusive pair together', { a: 'x', status: 429 }, false],
    ['a field without the value it needs', { b: 'x', status: 500, wait: 1 }, false],
    ['a field without the field it needs', { b: 'x', wait: 1 }, false],
  ]

  it.each(cases)('%s: zod and the JSON Schema agree', (_, value, valid) => {
    expect(rule.safeParse(value).success).toBe(valid)
    expect(validate(value)).toBe(valid)
  })

  it('names every key a `not` requires as a property too, as linters ask (Redocly: no-required-schema-properties-undefined)', () => {
    const nots: Array<Record<string, unknown>> = []
    const visit = (node: unknown) => {
      if (node === null || typeof node !== 'object') return
      if ('not' in node) nots.push((node as { not: Record<string, unknown> }).not)
      for (const value of Object.values(node)) visit(value)
    }
    visit(toJsonSchema(rule, 'input'))
    expect(nots).toEqual([
      { required: ['a', 'status'], properties: { a: {}, status: {} } },
      { required: ['wait'], properties: { wait: {} } },
    ])
  })

  it('reports each broken rule with its message and path', () => {
    const issues = rule.safeParse({ a: 'x', status: 500, wait: 1 }).error!.issues
    expect(issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['status', 'a and status exclude each other'],
      ['wait', 'only a 429 or 503 waits'],
    ])
  })
})
