import { describe, expect, it } from 'vitest'
import { createSimulator } from '../create-simulator.js'
import type { Simulator } from '../simulator.js'

const BASE = 'http://sim.test'

async function send(sim: Simulator, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } }
  if (body !== undefined) init.body = JSON.stringify(body)
  const response = await sim.fetch(new Request(`${BASE}${path}`, init))!
  const text = await response.text()
  return { status: response.status, text, body: text === '' ? undefined : JSON.parse(text) }
}

const state = async (sim: Simulator, headers: Record<string, string> = {}) => (await send(sim, 'GET', '/__mock/state', undefined, headers)).text

describe('the time line routes', () => {
  it('list the kept commands and show the world before any of them with what it changed, leaving the live world alone', async () => {
    const sim = createSimulator({ seed: 3, clock: '2026-01-01T00:00:00Z' })
    await sim.ready
    const before: string[] = []
    const writes: Array<[string, string, unknown]> = [
      ['PUT', '/core/products/prod-1001', { price: 12.5 }],
      ['POST', '/admin/api/v1.2/users', { username: 'ada', email: 'ada@example.com', password: 'correct horse battery' }],
      ['POST', '/__mock/clock', { advance: '2h' }],
      ['PUT', '/core/products/prod-1002', { stock: 4 }],
    ]
    for (const [method, path, body] of writes) {
      before.push(await state(sim))
      expect((await send(sim, method, path, body)).status).toBeLessThan(300)
    }
    const live = await state(sim)

    const history = await send(sim, 'GET', '/__mock/history')
    expect(history.status).toBe(200)
    expect(history.body.world).toBeNull()
    expect(history.body.commands.map((command: { number: number; method: string; path: string }) => `${command.number} ${command.method} ${command.path}`)).toEqual([
      '1 PUT /core/products/prod-1001',
      '2 POST /admin/api/v1.2/users',
      '3 POST /__mock/clock',
      '4 PUT /core/products/prod-1002',
    ])

    const later = (await send(sim, 'GET', '/__mock/history?from=3')).body
    expect(later.count).toBe(4)
    expect(later.commands.map((command: { number: number }) => command.number)).toEqual([3, 4])
    expect(later.startedAt).toBe(history.body.startedAt)

    // Out of order on purpose: forward, back, again.
    for (const number of [2, 1, 4, 3, 1, 4]) {
      const point = await send(sim, 'GET', `/__mock/history/${number}`)
      expect(point.status).toBe(200)
      expect(JSON.stringify(point.body.state)).toBe(before[number - 1])
      expect(point.body.command.number).toBe(number)
    }
    const first = (await send(sim, 'GET', '/__mock/history/1')).body
    expect(first.clock).toBe('2026-01-01T00:00:00.000Z')
    expect(first.diff.collections).toEqual([
      {
        section: 'core',
        collection: 'products',
        keyField: 'id',
        added: [],
        changed: [{ key: 'prod-1001', fields: [expect.objectContaining({ name: 'price', after: 12.5 })] }],
        removed: [],
      },
    ])
    const created = (await send(sim, 'GET', '/__mock/history/2')).body.diff.collections
    expect(created).toHaveLength(1)
    expect(created[0]).toMatchObject({ section: 'accounts', collection: 'users', changed: [], removed: [] })
    expect(created[0].added.map((entry: { record: { username: string } }) => entry.record.username)).toEqual(['ada'])
    expect(JSON.stringify(created)).not.toMatch(/password|hash/i)
    // The clock command changed no record; the world's clock read 2h later from then on.
    expect((await send(sim, 'GET', '/__mock/history/3')).body.diff.records).toBe(0)
    expect((await send(sim, 'GET', '/__mock/history/4')).body.clock).toBe('2026-01-01T02:00:00.000Z')

    expect(await state(sim)).toBe(live)
    expect((await send(sim, 'GET', '/__mock/history')).body.commands).toHaveLength(4)
  })

  it('answer 404 for a number the history does not hold and 400 for one that is no command number', async () => {
    const sim = createSimulator({ seed: 3, clock: '2026-01-01T00:00:00Z' })
    await sim.ready
    expect(await send(sim, 'GET', '/__mock/history/1')).toMatchObject({ status: 404, body: { error: 'not_found', commands: 0 } })
    expect((await send(sim, 'PUT', '/core/products/prod-1001', { price: 2 })).status).toBe(200)
    expect(await send(sim, 'GET', '/__mock/history/2')).toMatchObject({
      status: 404,
      body: { error: 'not_found', message: "No command 2 in the world's history: it holds commands 1 to 1.", commands: 1 },
    })
    expect((await send(sim, 'GET', '/__mock/history/0')).status).toBe(400)
    expect((await send(sim, 'GET', '/__mock/history/x')).status).toBe(400)
    expect((await send(sim, 'GET', '/__mock/history/1')).status).toBe(200)
  })

  it('follow a history that grows, and an isolated world made again under the same id', async () => {
    const sim = createSimulator({ seed: 3, clock: '2026-01-01T00:00:00Z' })
    await sim.ready
    const lab = { 'x-mock-world': 'lab' }
    expect((await send(sim, 'POST', '/__mock/worlds', { id: 'lab', scenario: 'empty' })).status).toBe(201)
    expect((await send(sim, 'POST', '/core/users', { username: 'bob', email: 'bob@example.com', password: 'Passw0rd!' }, lab)).status).toBe(201)
    expect((await send(sim, 'GET', '/__mock/history/1', undefined, lab)).body.diff.collections[0].added[0].record.username).toBe('bob')
    const between = await state(sim, lab)
    expect((await send(sim, 'POST', '/core/users', { username: 'cyrus', email: 'cy@example.com', password: 'Passw0rd!' }, lab)).status).toBe(201)
    const second = await send(sim, 'GET', '/__mock/history/2', undefined, lab)
    expect(second.body.world).toBe('lab')
    expect(JSON.stringify(second.body.state)).toBe(between)

    expect((await send(sim, 'DELETE', '/__mock/worlds/lab')).status).toBe(204)
    expect((await send(sim, 'POST', '/__mock/worlds', { id: 'lab', scenario: 'empty' })).status).toBe(201)
    expect((await send(sim, 'GET', '/__mock/history', undefined, lab)).body.commands).toEqual([])
    expect((await send(sim, 'POST', '/core/users', { username: 'dee', email: 'dee@example.com', password: 'Passw0rd!' }, lab)).status).toBe(201)
    const again = (await send(sim, 'GET', '/__mock/history/1', undefined, lab)).body
    expect(again.state.accounts.users).toEqual([])
    expect(again.diff.collections[0].added[0].record.username).toBe('dee')
    // The default world's history is its own.
    expect((await send(sim, 'GET', '/__mock/history')).body.commands.map((command: { path: string }) => command.path)).toEqual([
      '/__mock/worlds',
      '/__mock/worlds/lab',
      '/__mock/worlds',
    ])
  })

  it('steps through a long history fast once its saved worlds are made', async () => {
    const sim = createSimulator({ seed: 3, clock: '2026-01-01T00:00:00Z' })
    await sim.ready
    const states: string[] = []
    for (let i = 0; i < 300; i++) {
      if (i % 37 === 0) states[i] = await state(sim)
      const write =
        i % 3 === 0
          ? send(sim, 'POST', '/core/users', { username: `user${i}`, email: `u${i}@example.com`, password: 'Passw0rd!' })
          : send(sim, 'PUT', '/core/products/prod-1001', { price: i + 0.5 })
      expect((await write).status).toBeLessThan(300)
    }
    const live = await state(sim)
    let started = performance.now()
    // A long rebuild answers 503 past its share of a request; what it built stays built, so asking again goes on.
    let first = await send(sim, 'GET', '/__mock/history/300')
    while (first.status === 503) first = await send(sim, 'GET', '/__mock/history/300')
    expect(first.status).toBe(200)
    const cold = performance.now() - started
    const steps: number[] = []
    for (const number of [...Array.from({ length: 300 }, (_, i) => 300 - i), ...Array.from({ length: 300 }, (_, i) => i + 1)]) {
      started = performance.now()
      const point = await send(sim, 'GET', `/__mock/history/${number}`)
      steps.push(performance.now() - started)
      expect(point.status).toBe(200)
      if (states[number - 1] !== undefined) expect(JSON.stringify(point.body.state)).toBe(states[number - 1])
    }
    steps.sort((a, b) => a - b)
    console.info(`[history] 300 commands: first answer ${cold.toFixed(0)} ms; steps back and forth: median ${steps[300]!.toFixed(1)} ms, worst ${steps.at(-1)!.toFixed(1)} ms`)
    expect(steps[300]).toBeLessThan(50)
    expect(await state(sim)).toBe(live)
  }, 60_000)

  it('counts the worlds a rebuild makes against the worlds budget: past it, a 409 and nothing kept', async () => {
    const probe = createSimulator({ seed: 3 })
    await probe.ready
    await probe.worlds.create({ id: 'probe' })
    const perWorld = probe.worlds.records
    const sim = createSimulator({ seed: 3, worlds: { maxTotalRecords: 2 * perWorld } })
    await sim.ready
    for (const id of ['a', 'b']) expect((await send(sim, 'POST', '/__mock/worlds', { id })).status).toBe(201)
    // Rebuilding the world before command 2 makes world a again beside the live a and b.
    const refused = await send(sim, 'GET', '/__mock/history/2')
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ error: 'conflict', limit: 2 * perWorld, records: perWorld, inUse: 2 * perWorld })
    // The first command needs no world rebuilt; and once a live world goes, the rebuild fits.
    expect((await send(sim, 'GET', '/__mock/history/1')).status).toBe(200)
    expect((await send(sim, 'DELETE', '/__mock/worlds/b')).status).toBe(204)
    expect((await send(sim, 'GET', '/__mock/history/2')).status).toBe(200)
  })
})
