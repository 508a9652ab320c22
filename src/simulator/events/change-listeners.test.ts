import { getResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { ChangeListeners, mayWrite, type SimulatorChange } from './change-listeners.js'
import { createSimulator } from '../create-simulator.js'

const CLOCK = '2026-01-01T00:00:00Z'

function request(method: string, path: string, body?: unknown): Request {
  return new Request(`http://x${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  })
}

describe('sim.onChange', () => {
  it('fires after requests that may write and after whole-world operations, not after reads', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK })
    await sim.ready
    const changes: SimulatorChange[] = []
    const off = sim.onChange((change) => changes.push(change))

    await getResponse(sim.handlers, request('GET', '/admin/api/v1.2/users'))
    await getResponse(sim.handlers, request('GET', '/__mock/state'))
    expect(changes).toEqual([])

    const created = await getResponse(sim.handlers, request('POST', '/admin/api/v1.2/users', { username: 'hooked', email: 'h@example.com', password: 'long-enough' }))
    expect(created?.status).toBe(201)
    await sim.fetch(request('PUT', '/core/products/prod-1001', { price: 1 }))
    await getResponse(sim.handlers, request('POST', '/__mock/clock', { advance: '1m' }))
    // An unknown route wrote nothing: no change.
    await getResponse(sim.handlers, request('POST', '/admin/nowhere', {}))
    expect(changes).toEqual([
      { cause: 'request', method: 'POST', url: 'http://x/admin/api/v1.2/users', status: 201 },
      { cause: 'request', method: 'PUT', url: 'http://x/core/products/prod-1001', status: 200 },
      { cause: 'request', method: 'POST', url: 'http://x/__mock/clock', status: 200 },
    ])

    changes.length = 0
    await sim.reset()
    await sim.loadScenario('empty')
    await sim.importState(sim.exportState())
    expect(changes.map((change) => change.cause)).toEqual(['reset', 'scenario', 'state'])

    off()
    await sim.reset()
    expect(changes).toHaveLength(3)
  })

  it('tells listeners before the response is returned, so the saved world includes the write', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK, areas: ['admin'] })
    await sim.ready
    let countAtChange = -1
    sim.onChange(() => {
      countAtChange = sim.counts().users!
    })
    await getResponse(sim.handlers, request('POST', '/admin/api/v1.2/users', { username: 'early', email: 'e@example.com', password: 'long-enough' }))
    expect(countAtChange).toBe(49)
  })

  it('reports a failing listener and still answers and calls the others', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK, areas: ['admin'] })
    await sim.ready
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const seen: string[] = []
    sim.onChange(() => {
      throw new Error('listener bug')
    })
    sim.onChange((change) => seen.push(change.cause))
    const reply = await getResponse(sim.handlers, request('POST', '/admin/api/v1.2/users', { username: 'still.ok', email: 's@example.com', password: 'long-enough' }))
    expect(reply?.status).toBe(201)
    expect(seen).toEqual(['request'])
    expect(error).toHaveBeenCalledWith('[multi-area-mock] an onChange listener failed:', expect.any(Error))
    error.mockRestore()
  })
})

describe('ChangeListeners', () => {
  it('calls a listener added twice twice, and each unsubscribe removes one', () => {
    const changes = new ChangeListeners()
    const listener = vi.fn()
    const offFirst = changes.add(listener)
    changes.add(listener)
    changes.emit({ cause: 'reset' })
    expect(listener).toHaveBeenCalledTimes(2)
    offFirst()
    changes.emit({ cause: 'reset' })
    expect(listener).toHaveBeenCalledTimes(3)
  })

  it('treats every method but GET, HEAD and OPTIONS as one that may write', () => {
    expect(['GET', 'head', 'OPTIONS'].map(mayWrite)).toEqual([false, false, false])
    expect(['POST', 'PUT', 'PATCH', 'DELETE'].map(mayWrite)).toEqual([true, true, true, true])
  })
})
