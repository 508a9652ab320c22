import { describe, expect, it } from 'vitest'
import { ConfigError } from '../kernel/errors/config-error.js'
import { createSimulator } from './create-simulator.js'

describe('createSimulator: seed and body limit options', () => {
  it.each([-5, 1.5, 2 ** 32, Number.NaN])('refuses seed %s in one line naming the range', (seed) => {
    const attempt = () => createSimulator({ seed })
    expect(attempt).toThrow(ConfigError)
    expect(attempt).toThrow(`Invalid seed "${seed}" (--seed): expected an integer from 0 to 4294967295.`)
  })

  it('takes the whole range of seeds, each its own world', async () => {
    const [low, high] = [0, 2 ** 32 - 1].map((seed) => createSimulator({ seed, areas: ['core'] }))
    await Promise.all([low!.ready, high!.ready])
    expect(low!.seed).toBe(0)
    expect(high!.seed).toBe(4294967295)
    expect(high!.exportState().accounts.users[0]!.id).not.toBe(low!.exportState().accounts.users[0]!.id)
  })

  it.each([0, -1, 1.5, 256 * 1024 * 1024 + 1])('refuses limits.bodyBytes %s naming the range', (bodyBytes) => {
    expect(() => createSimulator({ limits: { bodyBytes } })).toThrow(
      `Invalid body limit "${bodyBytes}" (limits.bodyBytes, --body-limit): expected a number of bytes from 1 to 268435456 (256mb).`,
    )
  })

  it('applies limits.bodyBytes to area routes in-process', async () => {
    const sim = createSimulator({ seed: 1, limits: { bodyBytes: 100 }, areas: ['admin'] })
    const post = (body: string) => sim.fetch(new Request('http://sim.test/admin/api/v1.2/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body }))!
    const small = JSON.stringify({ username: 'ada', email: 'a@example.com', password: 'Passw0rd!' })
    expect(small.length).toBeLessThanOrEqual(100)
    expect((await post(small)).status).toBe(201)
    const refused = await post(`${small.slice(0, -1)}${' '.repeat(101 - small.length)}}`)
    expect(refused.status).toBe(413)
    expect(await refused.json()).toMatchObject({ error: 'payload_too_large', limit: 100 })
  })
})

describe('createSimulator: an option given as undefined', () => {
  // What a project with exactOptionalPropertyTypes writes: `{ admin: process.env.ADMIN_URL }`.
  it('is the option left out, in nested options too', async () => {
    const given = createSimulator({ seed: undefined, clock: undefined, baseUrls: { admin: undefined, core: '/c' }, limits: { bodyBytes: undefined }, worlds: undefined })
    const plain = createSimulator({ baseUrls: { core: '/c' } })
    await Promise.all([given.ready, plain.ready])
    expect(given.areas).toEqual(plain.areas)
    expect(given.areas.find((area) => area.id === 'admin')!.baseUrls).toEqual(['/admin'])
    expect(given.seed).toBe(plain.seed)
  })
})
