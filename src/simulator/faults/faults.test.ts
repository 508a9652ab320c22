import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../create-simulator.js'
import { parseFaultText, parseLatencyText } from './fault-text.js'
import { ScenarioError } from '../../kernel/errors/scenario-error.js'

const CLOCK = '2026-01-01T00:00:00Z'
const product = () => new Request('http://sim.test/core/products/prod-1001')
const statuses = async (sim: Simulator, count: number) => {
  const out: number[] = []
  for (let i = 0; i < count; i++) out.push((await sim.fetch(product())!).status)
  return out
}

describe('sim.faults', () => {
  const flaky = [{ route: '/core/products/{id}', status: 503 as const, probability: 0.5 }]

  it('fails the same requests for the same seed, other ones for another seed', async () => {
    const [a, b, c] = [1, 1, 2].map((seed) => createSimulator({ seed, clock: CLOCK, faults: flaky }))
    const first = await statuses(a!, 40)
    expect(await statuses(b!, 40)).toEqual(first)
    expect(await statuses(c!, 40)).not.toEqual(first)
    expect(first.filter((status) => status === 503).length).toBeGreaterThan(5)
  })

  it('draws from their own generator: ids and data are those of a simulator without faults', async () => {
    const faulty = createSimulator({ seed: 3, clock: CLOCK, faults: [{ route: '/core/products/*', status: 500, probability: 0.5 }] })
    const plain = createSimulator({ seed: 3, clock: CLOCK })
    await statuses(faulty, 10)
    await statuses(plain, 3)
    const create = (sim: Simulator) =>
      sim.fetch(
        new Request('http://sim.test/core/users', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"username":"same.id","email":"s@example.com","password":"long-enough"}',
        }),
      )!
    expect(await (await create(faulty)).json()).toEqual(await (await create(plain)).json())
  })

  it('combine the option and the scenario section; reset restores them, their counts and their draws', async () => {
    const sim = createSimulator({
      seed: 1,
      clock: CLOCK,
      faults: flaky,
      scenario: { description: 'with faults', faults: [{ method: 'POST', status: 502, times: 1 }] },
    })
    await sim.ready
    expect(sim.faults.list().map((rule) => rule.status)).toEqual([503, 502])
    const first = await statuses(sim, 12)
    sim.faults.clear()
    expect(await statuses(sim, 3)).toEqual([200, 200, 200])
    await sim.reset()
    expect(sim.faults.list()).toHaveLength(2)
    expect(await statuses(sim, 12)).toEqual(first)
  })

  it('refuse bad rules with a ScenarioError naming the path, and change nothing', async () => {
    expect(() => createSimulator({ faults: [{ status: 302 }] })).toThrow(/Invalid faults option: 0\.status: must be an HTTP error status from 400 to 599/)
    expect(() => createSimulator({ faults: [{ status: 600 }] })).toThrow(/0\.status: must be an HTTP error status from 400 to 599/)
    expect(() => createSimulator({ faults: [{ status: 404.5 }] })).toThrow(/0\.status: must be an HTTP error status from 400 to 599/)
    const sim = createSimulator({ faults: flaky })
    expect(() => sim.faults.set([{ latency: [5, 1] }])).toThrow(ScenarioError)
    expect(() => sim.faults.add({ route: '/x', status: 500, drop: true })).toThrow(/status and drop exclude each other/)
    expect(() => sim.faults.add({ status: 500, retryAfter: 3 })).toThrow(/only a 429 or 503 carries Retry-After/)
    expect(() => sim.faults.add({ status: 404, retryAfter: 3 })).toThrow(/only a 429 or 503 carries Retry-After/)
    expect(() => sim.faults.add({ area: 'core' })).toThrow(/at least one effect/)
    expect(sim.faults.list()).toEqual([{ ...flaky[0], fired: 0 }])
  })

  it('are checked against the request: area, method (HEAD as GET) and route forms', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK })
    const hit = async (rule: Parameters<typeof sim.faults.set>[0][number], request: Request) => {
      sim.faults.set([rule])
      return (await sim.fetch(request)!).status === 503
    }
    expect(await hit({ area: 'admin', status: 503 }, product())).toBe(false)
    expect(await hit({ area: 'core', method: 'GET', status: 503 }, new Request('http://sim.test/core/users', { method: 'HEAD' }))).toBe(true)
    expect(await hit({ route: '/products/{x}', status: 503 }, product())).toBe(true)
    expect(await hit({ route: '/core/**', status: 503 }, product())).toBe(true)
    expect(await hit({ route: '/core/products', status: 503 }, product())).toBe(false)
    expect(await hit({ route: '/products/prod-1001', status: 503 }, product())).toBe(true)
  })
})

describe('fault statuses: any 400-599, with the D9 body of the status', () => {
  const createUser = () =>
    new Request('http://sim.test/admin/api/v1.2/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username":"faulted","email":"faulted@example.com","password":"Passw0rd!"}',
    })

  it.each([
    [400, 'bad_request'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [409, 'conflict'],
    [422, 'unprocessable_entity'],
    [500, 'internal_error'],
    [501, 'not_implemented'],
  ])('%i answers {error: %s, message} instead of the route, and writes nothing', async (status, code) => {
    const sim = createSimulator({ seed: 1, clock: CLOCK, faults: [{ method: 'POST', route: '/api/v1.2/users', status }] })
    await sim.ready
    const before = sim.db.users.count()
    const response = await sim.fetch(createUser())!
    expect(response.status).toBe(status)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const body = await response.json()
    expect(body).toEqual({ error: code, message: expect.stringMatching(/\(injected fault\)\.$/) })
    expect(response.headers.get('retry-after')).toBeNull()
    expect(sim.db.users.count()).toBe(before)
    expect(sim.journal.find({ method: 'POST' })).toMatchObject([{ status, fault: `rule 1: ${status}` }])
  })

  it('a status without a standard reason phrase gets client_error or server_error', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK, faults: [{ area: 'core', status: 499 }] })
    expect(await (await sim.fetch(product())!).json()).toEqual({ error: 'client_error', message: 'The simulator answered 499 (injected fault).' })
    sim.faults.set([{ area: 'core', status: 599 }])
    expect(await (await sim.fetch(product())!).json()).toEqual({ error: 'server_error', message: 'The simulator answered 599 (injected fault).' })
    sim.faults.set([{ area: 'core', status: 410 }])
    expect(await (await sim.fetch(product())!).json()).toEqual({ error: 'gone', message: 'The simulator answered 410 Gone (injected fault).' })
  })

  it('Retry-After only on 429 and 503; a 401 carries the Bearer challenge of its area', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK, faults: [{ area: 'core', status: 429, retryAfter: 7 }] })
    const limited = await sim.fetch(product())!
    expect(limited.headers.get('retry-after')).toBe('7')
    expect(await limited.json()).toMatchObject({ error: 'too_many_requests', retry_after: 7 })
    sim.faults.set([{ area: 'core', status: 401 }])
    const unauthorized = await sim.fetch(product())!
    expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer realm="core"')
    expect(unauthorized.headers.get('retry-after')).toBeNull()
  })

  it('Prefer: code= takes any status from 400 to 599 and ignores others', async () => {
    const sim = createSimulator({ seed: 1, clock: CLOCK })
    const prefer = (value: string) => sim.fetch(new Request('http://sim.test/core/products/prod-1001', { headers: { prefer: value } }))!
    const conflict = await prefer('code=409')
    expect(conflict.status).toBe(409)
    expect(conflict.headers.get('preference-applied')).toBe('code=409')
    expect(await conflict.json()).toMatchObject({ error: 'conflict' })
    expect((await prefer('code=404')).status).toBe(404)
    expect((await prefer('code=302')).status).toBe(200)
    expect((await prefer('code=600')).status).toBe(200)
  })
})

describe('parseFaultText (--fault)', () => {
  it('reads words in any order', () => {
    expect(parseFaultText('POST /core/users 503 p=0.5 times=3 retry-after=9')).toEqual([
      { method: 'POST', route: '/core/users', status: 503, probability: 0.5, times: 3, retryAfter: 9 },
    ])
    expect(parseFaultText('drop area=core latency=10..20 get')).toEqual([{ drop: true, area: 'core', latency: [10, 20], method: 'GET' }])
  })

  it('reads JSON: one rule or a list', () => {
    expect(parseFaultText('{"status":500}')).toEqual([{ status: 500 }])
    expect(parseFaultText('[{"latency":5},{"drop":true}]')).toHaveLength(2)
  })

  it('names what is wrong', () => {
    expect(() => parseFaultText('POST /x teapot')).toThrow(/Unknown part "teapot"/)
    expect(() => parseFaultText('POST 302')).toThrow(/0\.status: must be an HTTP error status from 400 to 599/)
    expect(() => parseFaultText('POST 600')).toThrow(/0\.status: must be an HTTP error status from 400 to 599/)
    expect(() => parseFaultText('{"status":')).toThrow(/not valid JSON/)
    expect(() => parseFaultText('p=half 503')).toThrow(/Invalid number in "p=half"/)
    expect(() => parseLatencyText('200..50')).toThrow(/minimum comes first/)
    expect(() => parseLatencyText('fast')).toThrow(/Invalid latency "fast"/)
  })

  it('takes any error status from 400 to 599', () => {
    expect(parseFaultText('DELETE /admin/** 403')).toEqual([{ method: 'DELETE', route: '/admin/**', status: 403 }])
    expect(parseFaultText('400')).toEqual([{ status: 400 }])
    expect(parseFaultText('599 times=1')).toEqual([{ status: 599, times: 1 }])
  })

  it('ignores surrounding and repeated spaces', () => {
    expect(parseFaultText('  GET   503  ')).toEqual([{ method: 'GET', status: 503 }])
  })
})
