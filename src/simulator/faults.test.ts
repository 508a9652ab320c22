import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from './create-simulator.js'
import { parseFaultText, parseLatencyText } from './fault-text.js'
import { ScenarioError } from '../kernel/errors/scenario-error.js'

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
    expect(() => createSimulator({ faults: [{ status: 418 as never }] })).toThrow(/Invalid faults option: 0\.status/)
    const sim = createSimulator({ faults: flaky })
    expect(() => sim.faults.set([{ latency: [5, 1] }])).toThrow(ScenarioError)
    expect(() => sim.faults.add({ route: '/x', status: 500, drop: true })).toThrow(/status and drop exclude each other/)
    expect(() => sim.faults.add({ status: 500, retryAfter: 3 })).toThrow(/only a 429 or 503 carries Retry-After/)
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
    expect(() => parseFaultText('POST 418')).toThrow(/0\.status: must be one of 429, 500, 502, 503, 504/)
    expect(() => parseFaultText('{"status":')).toThrow(/not valid JSON/)
    expect(() => parseFaultText('p=half 503')).toThrow(/Invalid number in "p=half"/)
    expect(() => parseLatencyText('200..50')).toThrow(/minimum comes first/)
    expect(() => parseLatencyText('fast')).toThrow(/Invalid latency "fast"/)
  })

  it('ignores surrounding and repeated spaces', () => {
    expect(parseFaultText('  GET   503  ')).toEqual([{ method: 'GET', status: 503 }])
  })
})
