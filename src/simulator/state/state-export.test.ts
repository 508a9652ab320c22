import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../create-simulator.js'

// `GET /__mock/state` is streamed (src/kernel/http/json/json-stream.ts): it must give
// the bytes a whole `JSON.stringify` of the export gave, secrets left out.
const sim = createSimulator({
  seed: 3,
  clock: '2026-01-01T00:00:00Z',
  scenario: { accounts: { generate: { active: 2000, pending: 500 }, users: [{ username: 'zoe.named', email: 'zoe@example.com', status: 'active', password: 'S3cret-password' }] } },
})
const server = setupServer(...sim.handlers)
beforeAll(async () => {
  await sim.ready
  server.listen({ onUnhandledRequest: 'error' })
  // Writes in several sections, so the export is more than the seeded world.
  const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect((await post('http://sim.test/admin/api/v1.2/users', { username: 'late.comer', email: 'late@example.com', password: 'An0ther-secret' })).status).toBe(201)
  const renamed = await fetch('http://sim.test/core/products/prod-1001', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Zoë Çore ✓ "quoted"', price: 10.5 }),
  })
  expect(renamed.status).toBe(200)
})
afterAll(() => server.close())

describe('GET /__mock/state, streamed', () => {
  it('is byte for byte JSON.stringify of the export, through msw and sim.fetch', async () => {
    const expected = JSON.stringify(sim.exportState())
    expect(expected.length).toBeGreaterThan(300_000)
    const viaMsw = await fetch('http://sim.test/__mock/state')
    expect(viaMsw.status).toBe(200)
    expect(viaMsw.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await viaMsw.text()).toBe(expected)
    const direct = await sim.fetch(new Request('http://sim.test/__mock/state'))!
    expect(await direct.text()).toBe(expected)
  })

  it('never carries a password or its hash', async () => {
    const text = await (await fetch('http://sim.test/__mock/state')).text()
    expect(text).not.toContain('password')
    expect(text).not.toContain('pbkdf2')
    expect(text).toContain('Zoë Çore ✓ \\"quoted\\"')
    expect(text).not.toContain('S3cret-password')
    expect(text).not.toContain('An0ther-secret')
    const state = JSON.parse(text)
    expect(state.accounts.users).toHaveLength(2502)
    expect(state.accounts.users.some((user: { username: string }) => user.username === 'zoe.named')).toBe(true)
    // The in-process snapshot keeps the hashes; the export does not.
    expect(JSON.stringify(sim.snapshot())).toContain('pbkdf2')
  })

  it('shows the world as it was when asked, even if it changes while the answer is read', async () => {
    const response = await sim.fetch(new Request('http://sim.test/__mock/state'))!
    const before = JSON.stringify(sim.exportState())
    const reader = response.body!.getReader()
    const first = await reader.read()
    await fetch('http://sim.test/admin/api/v1.2/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'mid.stream', email: 'mid@example.com', password: 'long-enough' }),
    })
    const decoder = new TextDecoder()
    let text = decoder.decode(first.value, { stream: true })
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
    expect(text + decoder.decode()).toBe(before)
    expect(JSON.stringify(sim.exportState())).toContain('mid.stream')
  })
})
