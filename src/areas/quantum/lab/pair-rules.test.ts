import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsPlugin from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { toJsonSchema } from '../../../kernel/openapi/json-schema.js'
import { scenarioPair, statePair } from '../schemas.js'

const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default

/** A validator of the schema as the document publishes it (input side, as `PUT /__mock/state` reads it). */
function documented(schema: Parameters<typeof toJsonSchema>[0]) {
  const ajv = new Ajv2020({ strict: false })
  addFormats(ajv)
  return ajv.compile(toJsonSchema(schema, 'input'))
}

const at = '2026-01-01T00:00:00Z'
const open = (id: string) => ({ id, state: 'superposition' })
const collapsed = (id: string, state: string, axis: string | null = 'z-axis') => ({ id, state, measurement_axis: axis, last_measured: at })
const pair = (mode: string, a: object, b: object) => ({ particle_type: 'electron', entanglement_mode: mode, created_at: at, particles: [a, b] })

describe('the rules of a pair, said in the document as JSON Schema, agree with the server', () => {
  const cases: Array<[string, unknown]> = [
    ['both in superposition', pair('spin', open('a'), open('b'))],
    ['both collapsed in spin mode', pair('spin', collapsed('a', 'spin_up'), collapsed('b', 'spin_down'))],
    ['both collapsed in polarization mode', pair('polarization', collapsed('a', 'vertical', '22.5deg'), collapsed('b', 'horizontal', '22.5deg'))],
    ['one collapsed, one not', pair('spin', collapsed('a', 'spin_up'), open('b'))],
    ['an outcome of the other mode', pair('spin', collapsed('a', 'horizontal'), collapsed('b', 'vertical'))],
    ['collapsed without an axis', pair('spin', collapsed('a', 'spin_up', null), collapsed('b', 'spin_down'))],
    ['superposition with an axis', pair('spin', { ...open('a'), measurement_axis: 'x-axis' }, open('b'))],
    ['superposition with an instant', pair('spin', { ...open('a'), last_measured: at }, open('b'))],
  ]

  it.each(cases)('%s: the document and the server give the same verdict', (_, value) => {
    expect(documented(statePair)(value)).toBe(statePair.safeParse(value).success)
  })

  it('refuses every broken pair above, on both sides', () => {
    expect(cases.filter(([, value]) => statePair.safeParse(value).success).map(([name]) => name)).toEqual([
      'both in superposition',
      'both collapsed in spin mode',
      'both collapsed in polarization mode',
    ])
  })

  it.each([
    ['a spin result, mode left to its default', { measured: { result: 'spin_down' } }],
    ['a polarization result, mode left to its default', { measured: { result: 'vertical' } }],
    ['a polarization result in polarization mode', { entanglement_mode: 'polarization', measured: { result: 'vertical' } }],
    ['a spin result in polarization mode', { entanglement_mode: 'polarization', measured: { result: 'spin_up' } }],
    ['no result: drawn from the seed', { entanglement_mode: 'polarization', measured: {} }],
  ])('a scenario pair with %s: the same verdict', (_, value) => {
    expect(documented(scenarioPair)(value)).toBe(scenarioPair.safeParse(value).success)
  })
})
