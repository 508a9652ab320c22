import { describe, expect, it } from 'vitest'
import { createSimulator, type ScenarioInput, ScenarioError } from '../../index.js'

const CLOCK = '2026-01-01T00:00:00.000Z'
const OPPOSITE: Record<string, string> = { spin_up: 'spin_down', spin_down: 'spin_up', horizontal: 'vertical', vertical: 'horizontal' }

async function world(quantum: NonNullable<ScenarioInput['quantum']>, seed = 1) {
  const sim = createSimulator({ seed, clock: CLOCK, scenario: { quantum }, areas: ['quantum'] })
  await sim.ready
  return sim
}

function scenarioProblems(quantum: unknown): string[] {
  try {
    createSimulator({ scenario: { quantum } as ScenarioInput, areas: ['quantum'] })
  } catch (error) {
    if (error instanceof ScenarioError) return error.details.map((detail) => detail.path)
    throw error
  }
  return []
}

describe('the quantum section of scenarios and state', () => {
  it('creates listed pairs with fixed ids, defaults and given measurements', async () => {
    const sim = await world({
      platform: { status: 'degraded' },
      pairs: [
        { particle_ids: ['alice', 'bob'] },
        { entanglement_mode: 'polarization', created_at: '2025-12-31T12:00:00Z', measured: { particle: 'b', axis: '-22.50deg', result: 'vertical' } },
        { particle_type: 'neutron', particle_ids: ['n-1', 'n-2'], measured: { axis: 'x-axis', at: '2025-12-31T13:00:00Z' } },
      ],
    })
    const { platform, pairs, recent_operations } = sim.exportState().quantum
    expect(platform).toEqual({ status: 'degraded', base_load_percentage: 0, retry_after_seconds: 120 })
    expect(recent_operations).toEqual([])
    expect(pairs).toHaveLength(3)
    const [plain, photons, neutrons] = pairs
    expect(plain).toEqual({
      particle_type: 'electron',
      entanglement_mode: 'spin',
      created_at: CLOCK,
      particles: [
        { id: 'alice', state: 'superposition', measurement_axis: null, last_measured: null },
        { id: 'bob', state: 'superposition', measurement_axis: null, last_measured: null },
      ],
    })
    expect(photons!.particle_type).toBe('photon')
    expect(photons!.particles.map((particle) => [particle.state, particle.measurement_axis, particle.last_measured])).toEqual([
      ['horizontal', '-22.5deg', '2025-12-31T12:00:00.000Z'],
      ['vertical', '-22.5deg', '2025-12-31T12:00:00.000Z'],
    ])
    for (const particle of photons!.particles) expect(particle.id).toMatch(/^qp_[0-9a-z]{26}$/)
    const [n1, n2] = neutrons!.particles
    expect(n1).toMatchObject({ id: 'n-1', measurement_axis: 'x-axis', last_measured: '2025-12-31T13:00:00.000Z' })
    expect(['spin_up', 'spin_down']).toContain(n1!.state)
    expect(n2!.state).toBe(OPPOSITE[n1!.state])
    expect(sim.db.particles!.count()).toBe(6)
  })

  it('generates pairs per mode and state, after the listed ones', async () => {
    const sim = await world({ pairs: [{ particle_ids: ['first-a', 'first-b'] }], generate: { spin: { superposition: 40, collapsed: 10 }, polarization: { collapsed: 5 } } })
    const { pairs } = sim.exportState().quantum
    expect(pairs).toHaveLength(56)
    expect(pairs[0]!.particles[0]!.id).toBe('first-a')
    const kinds = new Map<string, number>()
    for (const pair of pairs.slice(1)) {
      const [a, b] = pair.particles
      const collapsed = a.state !== 'superposition'
      const kind = `${pair.entanglement_mode}/${collapsed ? 'collapsed' : 'superposition'}`
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
      expect(pair.particle_type === 'photon').toBe(pair.entanglement_mode === 'polarization')
      expect(Date.parse(pair.created_at)).toBeLessThanOrEqual(Date.parse(CLOCK))
      expect(Date.parse(pair.created_at)).toBeGreaterThan(Date.parse(CLOCK) - 86_400_000)
      if (!collapsed) continue
      expect(b.state).toBe(OPPOSITE[a.state])
      expect(b.measurement_axis).toBe(a.measurement_axis)
      expect(['x-axis', 'y-axis', 'z-axis']).toContain(a.measurement_axis)
      expect(a.last_measured! >= pair.created_at && a.last_measured! <= CLOCK).toBe(true)
    }
    expect(Object.fromEntries(kinds)).toEqual({ 'spin/superposition': 40, 'spin/collapsed': 10, 'polarization/collapsed': 5 })
    const ids = pairs.flatMap((pair) => pair.particles.map((particle) => particle.id))
    expect(new Set(ids).size).toBe(112)
  })

  it('is deterministic per seed (D24)', async () => {
    const scenario = { generate: { spin: { superposition: 3, collapsed: 3 } } }
    const one = (await world(scenario, 5)).exportState().quantum
    expect((await world(scenario, 5)).exportState().quantum).toEqual(one)
    expect((await world(scenario, 6)).exportState().quantum).not.toEqual(one)
  })

  it('refuses bad scenarios with the path of each problem', () => {
    expect(scenarioProblems({ pairs: [{ particle_ids: ['a', 'b'] }, { particle_ids: ['c', 'a'] }] })).toEqual(['quantum.pairs.1.particle_ids.1'])
    expect(scenarioProblems({ pairs: [{ particle_ids: ['same', 'same'] }] })).toEqual(['quantum.pairs.0.particle_ids.1'])
    expect(scenarioProblems({ pairs: [{ particle_ids: ['a/b', '..'] }] })).toEqual(['quantum.pairs.0.particle_ids.0', 'quantum.pairs.0.particle_ids.1'])
    expect(scenarioProblems({ pairs: [{ entanglement_mode: 'polarization', measured: { result: 'spin_up' } }] })).toEqual(['quantum.pairs.0.measured.result'])
    expect(scenarioProblems({ pairs: [{ measured: { axis: 'up' } }] })).toEqual(['quantum.pairs.0.measured.axis'])
    expect(scenarioProblems({ platform: { status: 'closed', base_load_percentage: 101 }, generate: { spin: { collapsed: -1 } }, extra: 1 }).sort()).toEqual([
      'quantum',
      'quantum.generate.spin.collapsed',
      'quantum.platform.base_load_percentage',
      'quantum.platform.status',
    ])
  })

  it('restores half-measured pairs, the platform and recent operations exactly, and replays the same outcomes', async () => {
    const sim = await world({ generate: { spin: { superposition: 2 }, polarization: { superposition: 1 } } })
    const post = (path: string, body: unknown) =>
      sim
        .fetch(new Request(`http://sim.test/quantum/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))!
        .then((reply) => reply.json())
    const [first] = sim.exportState().quantum.pairs
    await post('/measure', { particle_id: first!.particles[0].id, measurement_axis: '45deg' })
    const snapshot = sim.snapshot()
    const replay = async () => [await post('/measure', { particle_id: first!.particles[1].id, measurement_axis: 'x-axis' }), await post('/entangle', { particle_type: 'proton' })]
    const before = await replay()
    await sim.restore(snapshot)
    expect(sim.snapshot()).toEqual(snapshot)
    expect(snapshot.quantum.recent_operations).toEqual([CLOCK])
    expect(await replay()).toEqual(before)
    await sim.reset()
    expect(sim.exportState().quantum.pairs.every((pair) => pair.particles.every((particle) => particle.state === 'superposition'))).toBe(true)
  })

  it('empties the section when a state document leaves it out', async () => {
    const sim = await world({ generate: { spin: { superposition: 2 } }, platform: { status: 'maintenance' } })
    await sim.importState({})
    expect(sim.exportState().quantum).toEqual({ platform: { status: 'operational', base_load_percentage: 0, retry_after_seconds: 120 }, pairs: [], recent_operations: [] })
  })
})
