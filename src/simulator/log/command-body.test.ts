import { describe, expect, it } from 'vitest'
import { bodySpec } from '../../kernel/routing/route.js'
import { keptBody } from './command-body.js'
import { createSimulator } from '../create-simulator.js'
import { engineOf } from '../engine.js'

describe('keptBody', () => {
  it("is read by every route's schema as the route read the request: a replica applies what this process applied", async () => {
    const sim = createSimulator({ seed: 1 })
    await sim.ready
    let checked = 0
    for (const mount of engineOf(sim).dispatcher.mounts) {
      for (const route of mount.routes) {
        if (route.body === undefined || route.examples === undefined) continue
        const spec = bodySpec(route.body)
        if (spec.kind === 'raw') continue
        const read = (text: string) => spec.schema.safeParse(spec.parse ? spec.parse(text) : JSON.parse(text))
        for (const example of await route.examples()) {
          if (example.body === undefined) continue
          const first = read(JSON.stringify(example.body))
          if (!first.success) continue
          const request = { bodyText: JSON.stringify(example.body) } as never
          const kept = keptBody(route, { request, url: new URL('http://sim.test/'), params: {}, query: {}, body: first.data })!
          const again = read(kept)
          expect(again.success, `${route.method} ${route.path}`).toBe(true)
          expect(again.data, `${route.method} ${route.path}`).toEqual(first.data)
          checked++
        }
      }
    }
    // Every area's writes and the control API's JSON bodies have examples that pass.
    expect(checked).toBeGreaterThanOrEqual(10)
  })

  it('strips what the route does not read, and keeps a route without a body bodiless', async () => {
    const sim = createSimulator({ seed: 1 })
    await sim.ready
    const send = engineOf(sim)
      .dispatcher.mounts.flatMap((mount) => mount.routes)
      .find((route) => route.path === '/notifications/send')!
    const spec = bodySpec(send.body!)
    const body = spec.schema.parse({ recipient_ids: [2, 2], message: 'hi', password: 'x', seed: 4 })
    const request = { bodyText: '{}' } as never
    expect(keptBody(send, { request, url: new URL('http://sim.test/'), params: {}, query: {}, body })).toBe('{"recipient_ids":[2,2],"message":"hi","priority":"normal"}')
    const reset = engineOf(sim)
      .dispatcher.mounts.flatMap((mount) => mount.routes)
      .find((route) => route.path === '/reset')!
    expect(keptBody(reset, { request, url: new URL('http://sim.test/'), params: {}, query: {}, body: undefined })).toBeUndefined()
  })
})
