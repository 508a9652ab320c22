import { getResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { SimulatorInstance } from '../simulator/simulator-instance.js'
import { DeferredSimulatorHandler, type LoadedRouter } from './deferred-handler.js'

const CLOCK = '2026-01-01T00:00:00Z'

/** A promise settled from outside, as the browser entry's loading is. */
function later<T>() {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((yes, no) => {
    resolve = yes
    reject = no
  })
  return { promise, resolve, reject }
}

async function loaded(): Promise<LoadedRouter<object> & { simulator: SimulatorInstance }> {
  const simulator = new SimulatorInstance({ seed: 1, clock: CLOCK })
  await simulator.ready
  return { simulator, router: simulator.router, logger: simulator.handlers[0]! }
}

const usersRequest = () => new Request('http://app.test/admin/api/v1.2/users?limit=2')

describe('DeferredSimulatorHandler', () => {
  it('holds a request made while the simulator loads, then answers it as the simulator itself does', async () => {
    const loading = later<LoadedRouter<object>>()
    const handler = new DeferredSimulatorHandler(loading.promise)
    let settled = false
    const held = getResponse([handler], usersRequest()).then((response) => {
      settled = true
      return response
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(settled).toBe(false)

    const ready = await loaded()
    loading.resolve(ready)
    const response = await held
    const direct = await ready.simulator.fetch(usersRequest())
    expect(response?.status).toBe(200)
    expect(await response?.json()).toEqual(await direct?.json())
    // From then on the console group names the mounted areas, as the simulator's own handler does.
    expect(handler.info.header).toBe('multi-area-mock (admin, core, quantum, general, ledger)')
  })

  it('lets scripts and other assets through while the simulator loads: its own chunks are among them', async () => {
    const handler = new DeferredSimulatorHandler(new Promise<never>(() => undefined))
    for (const url of ['http://app.test/assets/prepare-browser-simulator-X2.js', 'http://app.test/styles/app.css', 'http://app.test/fonts/a.woff2']) {
      expect(await getResponse([handler], new Request(url)), url).toBeUndefined()
    }
  })

  it('holds data files while the simulator loads: the simulator answers its own (the document), the network the rest', async () => {
    const loading = later<LoadedRouter<object>>()
    const handler = new DeferredSimulatorHandler(loading.promise)
    const document = getResponse([handler], new Request('http://app.test/__mock/openapi.json'))
    const appData = getResponse([handler], new Request('http://app.test/mocks/team.json'))
    loading.resolve(await loaded())
    const answered = await document
    expect(answered?.status).toBe(200)
    expect(await answered?.json()).toMatchObject({ openapi: '3.1.0' })
    expect(await appData).toBeUndefined()
  })

  it('leaves requests no route claims to the next handler, once loaded', async () => {
    const handler = new DeferredSimulatorHandler(loaded())
    expect(await getResponse([handler], new Request('http://app.test/elsewhere'))).toBeUndefined()
    expect((await getResponse([handler], new Request('http://app.test/__mock/health')))?.status).toBe(200)
  })

  it('fails a held request with the reason the simulator could not load', async () => {
    const loading = later<LoadedRouter<object>>()
    const handler = new DeferredSimulatorHandler(loading.promise)
    const held = getResponse([handler], usersRequest())
    loading.reject(new Error('Invalid seed "-1" (--seed): expected an integer from 0 to 4294967295.'))
    await expect(held).rejects.toThrow('Invalid seed')
  })
})
