import { describe, expect, it } from 'vitest'
import { createSimulator } from '../create-simulator.js'

const CLOCK = '2026-01-01T00:00:00Z'
const encode = (text: string) => new TextEncoder().encode(text)

/** A POST whose JSON body arrives in two parts: the second when `finish()` is called. */
function slowPost(url: string, first: string, rest: string): { request: Request; finish: () => void } {
  let finish!: () => void
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encode(first))
      finish = () => {
        controller.enqueue(encode(rest))
        controller.close()
      }
    },
  })
  const request = new Request(url, { method: 'POST', body, duplex: 'half', headers: { 'content-type': 'application/json' } } as RequestInit)
  return { request, finish: () => finish() }
}

describe('world operations and requests never interleave', () => {
  it('a request whose body completes during a scenario load writes into the loaded world, as if it came after (regression: it took a seeded id mid-load)', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK })
    await sim.ready
    const { request, finish } = slowPost('http://x/admin/api/v1.2/users', '{"username":"straddler","email":"s@example.com",', '"password":"Passw0rd!"}')
    const pending = sim.fetch(request)!
    await new Promise((resolve) => setTimeout(resolve, 5))
    const load = sim.loadScenario('default')
    await new Promise((resolve) => setTimeout(resolve, 1))
    finish()
    const [reply] = await Promise.all([pending, load])
    expect(reply.status).toBe(201)

    // The same user created in a fresh world after the same load: the same world, ids and seeded draws included.
    const fresh = createSimulator({ seed: 1, clock: CLOCK })
    await fresh.ready
    const body = JSON.stringify({ username: 'straddler', email: 's@example.com', password: 'Passw0rd!' })
    expect((await fresh.fetch(new Request('http://x/admin/api/v1.2/users', { method: 'POST', body, headers: { 'content-type': 'application/json' } }))!).status).toBe(201)
    expect(sim.exportState()).toEqual(fresh.exportState())
  })

  it('a client that never finishes its body does not hold up a reset', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK })
    await sim.ready
    const { request } = slowPost('http://x/core/users', '{"username":', '')
    void sim.fetch(request)
    await new Promise((resolve) => setTimeout(resolve, 5))
    const outcome = await Promise.race([sim.reset().then(() => 'reset'), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000))])
    expect(outcome).toBe('reset')
  })

  it('requests that arrive during a load wait for it and see the loaded world', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK })
    await sim.ready
    const load = sim.loadScenario('empty')
    const reply = await sim.fetch(new Request('http://x/core/users'))!
    await load
    expect(reply.headers.get('x-total-count')).toBe('0')
  })
})
