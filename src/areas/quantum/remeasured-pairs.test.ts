import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsPlugin from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { toJsonSchema } from '../../kernel/openapi/json-schema.js'
import { createSimulator } from '../../simulator/create-simulator.js'
import { scenarioPair } from './schemas.js'

const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default
const CLOCK = '2026-01-01T00:00:00.000Z'

describe('a scenario pair measured again since its first measurement (measured.remeasured)', () => {
  it('loads each remeasured particle with its own outcome, axis and time; the other keeps what the first measurement left it', async () => {
    const sim = createSimulator({
      seed: 1,
      clock: CLOCK,
      areas: ['quantum'],
      scenario: {
        quantum: {
          pairs: [
            {
              particle_ids: ['p-a', 'p-b'],
              measured: {
                particle: 'a',
                axis: 'z-axis',
                result: 'spin_up',
                at: '2025-12-31T10:00:00Z',
                remeasured: { b: { axis: '22.50deg', result: 'spin_up', at: '2025-12-31T11:00:00Z' } },
              },
            },
            { particle_ids: ['q-a', 'q-b'], measured: { result: 'spin_down', at: '2025-12-31T10:00:00Z', remeasured: { a: { result: 'spin_up' } } } },
          ],
        },
      },
    })
    await sim.ready
    const [first, second] = sim.exportState().quantum.pairs
    expect(first!.particles).toEqual([
      { id: 'p-a', state: 'spin_up', measurement_axis: 'z-axis', last_measured: '2025-12-31T10:00:00.000Z' },
      { id: 'p-b', state: 'spin_up', measurement_axis: '22.5deg', last_measured: '2025-12-31T11:00:00.000Z' },
    ])
    // Axis and time default to z-axis and the first measurement's.
    expect(second!.particles).toEqual([
      { id: 'q-a', state: 'spin_up', measurement_axis: 'z-axis', last_measured: '2025-12-31T10:00:00.000Z' },
      { id: 'q-b', state: 'spin_up', measurement_axis: 'z-axis', last_measured: '2025-12-31T10:00:00.000Z' },
    ])
    const read = await (await sim.fetch(new Request('http://x/quantum/v1/particles/p-b'))!).json()
    expect(read).toMatchObject({ state: 'spin_up', measurement_axis: '22.5deg', last_measured: '2025-12-31T11:00:00.000Z' })
  })

  it.each([
    ['a spin outcome in spin mode', { measured: { remeasured: { b: { result: 'spin_down' } } } }, true],
    ['a polarization outcome, mode left to spin', { measured: { remeasured: { a: { result: 'vertical' } } } }, false],
    ['a spin outcome in polarization mode', { entanglement_mode: 'polarization', measured: { remeasured: { b: { result: 'spin_up' } } } }, false],
    ['a polarization outcome in polarization mode', { entanglement_mode: 'polarization', measured: { remeasured: { b: { result: 'horizontal', axis: '45deg' } } } }, true],
    ['no result', { measured: { remeasured: { a: { axis: 'x-axis' } } } }, false],
  ])('%s: the server and the published JSON Schema give the same verdict', (_, value, valid) => {
    const ajv = new Ajv2020({ strict: false })
    addFormats(ajv)
    expect(scenarioPair.safeParse(value).success).toBe(valid)
    expect(ajv.compile(toJsonSchema(scenarioPair, 'input'))(value)).toBe(valid)
  })
})
