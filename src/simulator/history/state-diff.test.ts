import { describe, expect, it } from 'vitest'
import { diffStates, stateDiffSchema } from './state-diff.js'

const product = (id: string, price: number) => ({ id, name: `Product ${id}`, price, stock: 3 })

describe('diffStates', () => {
  it('lists records added, changed (with the fields that changed) and removed, per section and collection', () => {
    const before = { format: 1, seed: 1, core: { products: [product('p1', 10), product('p2', 20), product('p3', 30)], readings: [] } }
    const after = { format: 1, seed: 1, core: { products: [product('p1', 10), product('p2', 25), product('p4', 40)], readings: [] } }
    expect(diffStates(before, after)).toEqual({
      records: 3,
      collections: [
        {
          section: 'core',
          collection: 'products',
          keyField: 'id',
          added: [{ key: 'p4', record: product('p4', 40) }],
          changed: [{ key: 'p2', fields: [{ name: 'price', before: 20, after: 25 }] }],
          removed: [{ key: 'p3', record: product('p3', 30) }],
        },
      ],
      values: [],
    })
  })

  it('is empty for equal states, and reports other values that changed by their path', () => {
    const state = { seed: 1, meta: { counter: 1, random: [4, 5] }, quantum: { platform: { status: 'operational' }, pairs: [] } }
    expect(diffStates(state, structuredClone(state))).toEqual({ records: 0, collections: [], values: [] })
    const later = { seed: 1, meta: { counter: 2, random: [6, 7] }, quantum: { platform: { status: 'maintenance' }, pairs: [] } }
    expect(diffStates(state, later).values).toEqual([
      { path: 'meta.counter', before: 1, after: 2 },
      { path: 'meta.random', before: [4, 5], after: [6, 7] },
      { path: 'quantum.platform', before: { status: 'operational' }, after: { status: 'maintenance' } },
    ])
  })

  it('tells records apart by a field named like an id, or by the ids of a list they hold (a pair of particles)', () => {
    const token = (token_id: string, supply: string) => ({ token_id, name: token_id.toUpperCase(), total_supply: supply })
    const pair = (a: string, b: string, state: string) => ({
      particle_type: 'photon',
      particles: [
        { id: a, state },
        { id: b, state },
      ],
    })
    const diff = diffStates(
      { ledger: { tokens: [token('mam', '1'), token('usdc', '5')] }, quantum: { pairs: [pair('qa', 'qb', 'superposition')] } },
      { ledger: { tokens: [token('mam', '2'), token('usdc', '5')] }, quantum: { pairs: [pair('qa', 'qb', 'up'), pair('qc', 'qd', 'superposition')] } },
    )
    expect(
      diff.collections.map(({ collection, keyField, added, changed }) => ({
        collection,
        keyField,
        added: added.map((entry) => entry.key),
        changed: changed.map((entry) => entry.key),
      })),
    ).toEqual([
      { collection: 'tokens', keyField: 'token_id', added: [], changed: ['mam'] },
      { collection: 'pairs', keyField: 'particles.id', added: ['qc + qd'], changed: ['qa + qb'] },
    ])
  })

  it('matches records without a key by their content, the same record twice counted apart', () => {
    const reading = (sensor_id: string, value: number) => ({ sensor_id, value })
    const before = { core: { readings: [reading('s1', 1), reading('s1', 1), reading('s2', 2)] } }
    const after = { core: { readings: [reading('s1', 1), reading('s2', 2), reading('s2', 3)] } }
    const [readings] = diffStates(before, after).collections
    expect(readings).toEqual({
      section: 'core',
      collection: 'readings',
      keyField: null,
      added: [{ key: '#3', record: reading('s2', 3) }],
      changed: [],
      removed: [{ key: '#2', record: reading('s1', 1) }],
    })
  })

  it('keeps before and after in every change: a field or value on one side only is null on the other, and `absent` names that side', () => {
    // GET /__mock/state shows `password: null` for a user without a password and nothing for one with a password.
    const user = (extra: Record<string, unknown>) => ({ id: 'u1', username: 'ada', ...extra })
    const removed = diffStates({ accounts: { users: [user({})] } }, { accounts: { users: [user({ password: null })] } })
    expect(removed.collections[0]!.changed).toEqual([{ key: 'u1', fields: [{ name: 'password', before: null, after: null, absent: 'before' }] }])
    const given = diffStates({ accounts: { users: [user({ password: null })] } }, { accounts: { users: [user({})] } })
    expect(given.collections[0]!.changed).toEqual([{ key: 'u1', fields: [{ name: 'password', before: null, after: null, absent: 'after' }] }])
    // Null on both sides is no change; a value present on both sides carries no `absent`.
    expect(diffStates({ accounts: { users: [user({ password: null })] } }, { accounts: { users: [user({ password: null })] } }).records).toBe(0)
    expect(diffStates({ core: { ingestion: { accepted: 1 } } }, { core: {} }).values).toEqual([{ path: 'core.ingestion', before: { accepted: 1 }, after: null, absent: 'after' }])
    expect(diffStates({ seed: 1 }, {}).values).toEqual([{ path: 'seed', before: 1, after: null, absent: 'after' }])
    expect(diffStates({ seed: 1 }, { seed: null }).values).toEqual([{ path: 'seed', before: 1, after: null }])
    // As JSON, the way GET /__mock/history/{number} answers it, both sides are still there.
    const sent = JSON.parse(JSON.stringify(removed))
    expect(stateDiffSchema.safeParse(sent).success).toBe(true)
    expect(Object.keys(sent.collections[0].changed[0].fields[0])).toEqual(['name', 'before', 'after', 'absent'])
  })

  it('sees a collection or a section that appears or goes', () => {
    const diff = diffStates({ core: { products: [product('p1', 1)] } }, { core: {}, general: { resources: [{ id: 1 }] } })
    expect(diff.collections.map(({ section, collection, added, removed }) => [section, collection, added.length, removed.length])).toEqual([
      ['core', 'products', 0, 1],
      ['general', 'resources', 1, 0],
    ])
    expect(diff.values).toEqual([])
  })
})
