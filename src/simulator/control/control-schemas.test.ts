import { describe, expect, expectTypeOf, it } from 'vitest'
import type { ControlGetHealthResponse } from '../../index.js'
import { createSimulator } from '../create-simulator.js'

const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z', scenario: 'empty' })

async function send(method: string, path: string, body?: unknown) {
  const response = (await sim.fetch(
    new Request(`http://sim.test${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
  ))!
  return { status: response.status, body: (await response.json()) as any }
}

describe('the control API refuses what its document says it refuses', () => {
  it('keeps the clock within the years 0000 to 9999 in UTC: a zone that takes `set` out is 400, and nothing moves', async () => {
    expect(await send('POST', '/__mock/clock', { set: '0000-01-01T00:00:00+01:00' })).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'validation_failed', details: [{ path: 'set', message: 'must fall within the years 0000 to 9999 in UTC' }] }),
    })
    expect((await send('GET', '/__mock/clock')).body.now).toBe('2026-01-01T00:00:00.000Z')
    expect((await send('POST', '/__mock/clock', { set: '0000-01-01T00:00:00-01:00' })).body.now).toBe('0000-01-01T01:00:00.000Z')
    await send('POST', '/__mock/clock', { set: '2026-01-01T00:00:00Z' })
  })

  it('bounds a numeric `advance` by the whole range, with the same message as a move that does not fit from here', async () => {
    for (const advance of [1e300, -1e300, 315_569_520_000_000, 300_000_000_000_000]) {
      expect(await send('POST', '/__mock/clock', { advance }), String(advance)).toMatchObject({
        status: 400,
        body: { details: [{ path: 'advance', message: 'would move the clock out of the years 0000 to 9999' }] },
      })
    }
    expect((await send('GET', '/__mock/clock')).body.now).toBe('2026-01-01T00:00:00.000Z')
  })

  it('takes an area id in `?area=` (400 for another word, 404 for an area not mounted here) and names areas by literal ids', async () => {
    const only = createSimulator({ seed: 1, scenario: 'empty', areas: ['core'] })
    const ask = async (query: string) => {
      const response = (await only.fetch(new Request(`http://sim.test/__mock/openapi.json${query}`)))!
      return { status: response.status, body: (await response.json()) as any }
    }
    expect(await ask('?area=billing')).toMatchObject({
      status: 400,
      body: { error: 'validation_failed', details: [{ path: 'query.area', message: 'must be one of admin, core, quantum, general, ledger' }] },
    })
    expect(await ask('?area=ledger')).toMatchObject({ status: 404, body: { error: 'not_found' } })
    expect((await ask('?area=core')).status).toBe(200)
    const health = (await send('GET', '/__mock/health')).body as ControlGetHealthResponse
    expect(health.areas.map((area) => [area.id, area.letter])).toEqual([
      ['admin', 'A'],
      ['core', 'B'],
      ['quantum', 'C'],
      ['general', 'D'],
      ['ledger', 'E'],
    ])
    expectTypeOf(health.areas[0]!.id).toEqualTypeOf<'admin' | 'core' | 'quantum' | 'general' | 'ledger'>()
  })

  it('lists the area ids and letters as enums in the document', async () => {
    const doc = (await sim.openapi()) as any
    const health = doc.components.schemas.Health.properties.areas.items.properties
    expect(health.id.enum).toEqual(['admin', 'core', 'quantum', 'general', 'ledger'])
    expect(health.letter.enum).toEqual(['A', 'B', 'C', 'D', 'E'])
    const area = doc.paths['/__mock/openapi.json'].get.parameters.find((parameter: any) => parameter.name === 'area')
    expect(area.schema.enum).toEqual(['admin', 'core', 'quantum', 'general', 'ledger'])
  })
})
