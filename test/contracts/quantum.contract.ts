import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, loadScenario, useDefaultWorld } from '../support/http.js'

/**
 * Area C behaviour (D16–D18), run in-process and over HTTP (see admin.contract.ts).
 * The world must be the `default` scenario, seed 1, clock 2026-01-01T00:00:00Z.
 * Outcomes and generated ids come from the shared seeded stream, so tests read
 * them first and assert relations (opposite, unchanged, equal after restore).
 */
export function describeQuantumContract(base: () => string): void {
  const CLOCK = '2026-01-01T00:00:00.000Z'
  const SPIN = ['spin_up', 'spin_down']
  const POLARIZATION = ['horizontal', 'vertical']
  const OPPOSITE: Record<string, string> = { spin_up: 'spin_down', spin_down: 'spin_up', horizontal: 'vertical', vertical: 'horizontal' }
  const PARTICLE_KEYS = ['created_at', 'entangled_with', 'entanglement_mode', 'last_measured', 'measurement_axis', 'message', 'particle_id', 'particle_type', 'properties', 'state']

  const quantum = (path: string) => `${base()}/quantum/v1${path}`
  const read = (id: string) => call(quantum(`/particles/${encodeURIComponent(id)}`))
  const measure = (particleId: string, axis?: unknown) =>
    call(quantum('/measure'), { method: 'POST', json: axis === undefined ? { particle_id: particleId } : { particle_id: particleId, measurement_axis: axis } })
  const entangle = async (body: Record<string, unknown> = { particle_type: 'electron' }) => {
    const reply = await call(quantum('/entangle'), { method: 'POST', json: body })
    expect(reply.status, reply.text).toBe(201)
    return reply.body as { particle_id_a: string; particle_id_b: string }
  }
  const state = async () => (await call(`${base()}/__mock/state`)).body
  const putState = (document: unknown) => call(`${base()}/__mock/state`, { method: 'PUT', json: document })
  const pairCount = async () => (await state()).quantum.pairs.length as number
  const withPlatform = async (platform: Record<string, unknown>) => {
    const document = await state()
    document.quantum.platform = { ...document.quantum.platform, ...platform }
    expect((await putState(document)).status).toBe(200)
  }

  describe('Area C: quantum', () => {
    useDefaultWorld(base)

    describe('POST /v1/entangle', () => {
      it('creates a pair of two different URL-safe ids, in spin mode by default (D16)', async () => {
        const before = await pairCount()
        const reply = await call(quantum('/entangle'), { method: 'POST', json: { particle_type: 'electron' } })
        expect(reply.status).toBe(201)
        expect(reply.body).toEqual({
          message: expect.stringContaining('superposition'),
          particle_id_a: expect.stringMatching(/^qp_[0-9a-z]{26}$/),
          particle_id_b: expect.stringMatching(/^qp_[0-9a-z]{26}$/),
          particle_type: 'electron',
          entanglement_mode: 'spin',
          created_at: CLOCK,
        })
        expect(reply.body.particle_id_a).not.toBe(reply.body.particle_id_b)
        expect(reply.headers.get('location')).toBe(`/quantum/v1/particles/${reply.body.particle_id_a}`)
        expect(await pairCount()).toBe(before + 1)
      })

      it('accepts every particle type in both modes', async () => {
        for (const particleType of ['photon', 'electron', 'positron', 'proton', 'neutron']) {
          for (const mode of ['spin', 'polarization']) {
            const pair = await entangle({ particle_type: particleType, entanglement_mode: mode })
            const particle = (await read(pair.particle_id_b)).body
            expect([particle.particle_type, particle.entanglement_mode, particle.state]).toEqual([particleType, mode, 'superposition'])
          }
        }
      })

      it('refuses unknown types and modes with 400 listing the supported values, creating nothing (D9, D16)', async () => {
        const before = await pairCount()
        const reply = await call(quantum('/entangle'), { method: 'POST', json: { particle_type: 'quark', entanglement_mode: 'colour' } })
        expect(reply.status).toBe(400)
        expect(reply.body.error).toBe('validation_failed')
        const messages = Object.fromEntries(reply.body.details.map((detail: { path: string; message: string }) => [detail.path, detail.message]))
        expect(messages.particle_type).toContain('photon, electron, positron, proton, neutron')
        expect(messages.entanglement_mode).toContain('spin, polarization')
        expect(await pairCount()).toBe(before)
      })

      it('refuses a missing type, a non-object and broken JSON (D11)', async () => {
        const missing = await call(quantum('/entangle'), { method: 'POST', json: { entanglement_mode: 'spin' } })
        expect(missing.status).toBe(400)
        expect(missing.body.details.map((detail: { path: string }) => detail.path)).toEqual(['particle_type'])
        expect((await call(quantum('/entangle'), { method: 'POST', json: ['electron'] })).status).toBe(400)
        const broken = await call(quantum('/entangle'), { method: 'POST', body: '{"particle_type":', headers: { 'content-type': 'application/json' } })
        expect(broken.status).toBe(400)
        expect(broken.body.error).toBe('invalid_json')
      })
    })

    describe('GET /v1/particles/{particle_id}', () => {
      it('shows a new particle in superposition, properties undetermined, never measured (D16)', async () => {
        const pair = await entangle({ particle_type: 'photon', entanglement_mode: 'polarization' })
        const reply = await read(pair.particle_id_a)
        expect(reply.status).toBe(200)
        expect(Object.keys(reply.body).sort()).toEqual(PARTICLE_KEYS)
        expect(reply.body).toMatchObject({
          particle_id: pair.particle_id_a,
          entangled_with: pair.particle_id_b,
          state: 'superposition',
          properties: { spin: 'undetermined', polarization: 'undetermined' },
          last_measured: null,
          measurement_axis: null,
          particle_type: 'photon',
          entanglement_mode: 'polarization',
          created_at: CLOCK,
        })
        expect(reply.body.message).toEqual(expect.any(String))
        expect((await read(pair.particle_id_b)).body.entangled_with).toBe(pair.particle_id_a)
      })

      it('answers an unknown particle with 404 carrying particle_id (D9)', async () => {
        const reply = await read('no-such-particle')
        expect(reply.status).toBe(404)
        expect(reply.body).toMatchObject({ error: 'not_found', particle_id: 'no-such-particle' })
        expect(reply.body.message).toContain('no-such-particle')
      })
    })

    describe('POST /v1/measure', () => {
      it('collapses both particles on the first measurement: the partner gets the opposite outcome (D17)', async () => {
        const pair = await entangle()
        const reply = await measure(pair.particle_id_a)
        expect(reply.status).toBe(200)
        const result = reply.body.result
        expect(SPIN).toContain(result)
        expect(reply.body).toEqual({
          message: expect.any(String),
          measured_particle_id: pair.particle_id_a,
          result,
          collapsed_state: result,
          correlated_particle_id: pair.particle_id_b,
          correlated_result: OPPOSITE[result],
          measurement_axis: 'z-axis',
          correlated_axis: 'z-axis',
          partner_collapsed: true,
          measured_at: CLOCK,
        })
        const a = (await read(pair.particle_id_a)).body
        const b = (await read(pair.particle_id_b)).body
        expect(a).toMatchObject({ state: result, properties: { spin: result, polarization: 'undetermined' }, measurement_axis: 'z-axis', last_measured: CLOCK })
        expect(b).toMatchObject({ state: OPPOSITE[result], properties: { spin: OPPOSITE[result], polarization: 'undetermined' }, measurement_axis: 'z-axis', last_measured: CLOCK })
      })

      it('measures polarization pairs as horizontal/vertical, either particle first', async () => {
        const pair = await entangle({ particle_type: 'photon', entanglement_mode: 'polarization' })
        const reply = await measure(pair.particle_id_b, 'x-axis')
        expect(POLARIZATION).toContain(reply.body.result)
        expect(reply.body.correlated_result).toBe(OPPOSITE[reply.body.result])
        const a = (await read(pair.particle_id_a)).body
        expect(a).toMatchObject({ state: OPPOSITE[reply.body.result], properties: { spin: 'undetermined', polarization: OPPOSITE[reply.body.result] }, measurement_axis: 'x-axis' })
      })

      it('always gives opposite outcomes when both particles are measured along the same axis, and repeats agree', async () => {
        for (const mode of ['spin', 'polarization']) {
          for (const axis of ['x-axis', 'y-axis', 'z-axis', '22.5deg', '-45deg']) {
            for (let i = 0; i < 4; i++) {
              const pair = await entangle({ particle_type: 'photon', entanglement_mode: mode })
              const first = (await measure(pair.particle_id_a, axis)).body
              const second = (await measure(pair.particle_id_b, axis)).body
              expect(second.result, `${mode} ${axis}`).toBe(OPPOSITE[first.result])
              expect(second.partner_collapsed).toBe(false)
              expect((await measure(pair.particle_id_a, axis)).body.result).toBe(first.result)
            }
          }
        }
      })

      it('after the first measurement, measures along other axes without disturbing the partner (D17)', async () => {
        const pair = await entangle()
        const first = (await measure(pair.particle_id_a, 'z-axis')).body
        const partnerBefore = (await read(pair.particle_id_b)).body
        await call(`${base()}/__mock/clock`, { method: 'POST', json: { advance: '5s' } })
        for (const axis of ['x-axis', '45deg', 'y-axis', '-90deg']) {
          const reply = (await measure(pair.particle_id_a, axis)).body
          expect(SPIN).toContain(reply.result)
          expect(reply).toMatchObject({
            measurement_axis: axis,
            partner_collapsed: false,
            correlated_result: OPPOSITE[first.result],
            correlated_axis: 'z-axis',
            measured_at: '2026-01-01T00:00:05.000Z',
          })
          const particle = (await read(pair.particle_id_a)).body
          expect(particle).toMatchObject({ state: reply.result, measurement_axis: axis, last_measured: '2026-01-01T00:00:05.000Z' })
        }
        expect((await read(pair.particle_id_b)).body).toEqual(partnerBefore)
      })

      it('normalises angle axes and echoes them', async () => {
        const pair = await entangle()
        expect((await measure(pair.particle_id_a, '22.50deg')).body.measurement_axis).toBe('22.5deg')
        expect((await measure(pair.particle_id_a, '-0deg')).body.measurement_axis).toBe('0deg')
        expect((await measure(pair.particle_id_a, '-360deg')).body.measurement_axis).toBe('-360deg')
      })

      it('refuses a bad axis with 400 listing the accepted forms, changing nothing (D17)', async () => {
        const pair = await entangle()
        for (const axis of ['w-axis', 'X-axis', '45', '45 deg', '400deg', 'x', '', 42, null]) {
          const reply = await measure(pair.particle_id_a, axis)
          expect(reply.status, String(axis)).toBe(400)
          expect(reply.body.error).toBe('validation_failed')
          expect(reply.body.details).toEqual([{ path: 'measurement_axis', message: expect.stringContaining('x-axis, y-axis, z-axis') }])
          expect(reply.body.details[0].message).toContain('22.5deg')
        }
        expect((await read(pair.particle_id_a)).body.state).toBe('superposition')
        expect((await read(pair.particle_id_b)).body.state).toBe('superposition')
      })

      it('answers an unknown particle with 404 carrying particle_id, and a missing one with 400 (D9, D11)', async () => {
        const unknown = await measure('qp_unknown', 'x-axis')
        expect(unknown.status).toBe(404)
        expect(unknown.body).toMatchObject({ error: 'not_found', particle_id: 'qp_unknown' })
        const missing = await call(quantum('/measure'), { method: 'POST', json: { measurement_axis: 'x-axis' } })
        expect(missing.status).toBe(400)
        expect(missing.body.details.map((detail: { path: string }) => detail.path)).toEqual(['particle_id'])
        const both = await call(quantum('/measure'), { method: 'POST', json: { particle_id: 7, measurement_axis: 'up' } })
        expect(both.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['measurement_axis', 'particle_id'])
      })
    })

    describe('GET /v1/status', () => {
      it('is operational with the clock as timestamp and no load in a fresh world (D18)', async () => {
        const reply = await call(quantum('/status'))
        expect(reply.status).toBe(200)
        expect(reply.body).toEqual({ status: 'operational', timestamp: CLOCK, load_percentage: 0 })
      })

      it('derives load from entangle and measure operations in the last 60 s of the simulator clock', async () => {
        const pair = await entangle()
        await measure(pair.particle_id_a)
        await read(pair.particle_id_a)
        await call(quantum('/status'))
        expect((await call(quantum('/status'))).body.load_percentage).toBe(0.33) // 2 of 600 a minute
        for (let i = 0; i < 4; i++) await entangle()
        expect((await call(quantum('/status'))).body.load_percentage).toBe(1)
        await call(`${base()}/__mock/clock`, { method: 'POST', json: { advance: '60s' } })
        const later = (await call(quantum('/status'))).body
        expect(later).toEqual({ status: 'operational', timestamp: '2026-01-01T00:01:00.000Z', load_percentage: 0 })
      })

      it('adds the state base load and caps at 100', async () => {
        await withPlatform({ base_load_percentage: 99.9 })
        expect((await call(quantum('/status'))).body.load_percentage).toBe(99.9)
        await entangle()
        expect((await call(quantum('/status'))).body.load_percentage).toBe(100)
      })

      it('reports degraded and keeps serving', async () => {
        await withPlatform({ status: 'degraded' })
        expect((await call(quantum('/status'))).body.status).toBe('degraded')
        const pair = await entangle()
        expect((await measure(pair.particle_id_a)).status).toBe(200)
      })

      it('in maintenance answers 503 with Retry-After everywhere but the status, changing nothing', async () => {
        const pair = await entangle()
        await withPlatform({ status: 'maintenance', retry_after_seconds: 90 })
        const before = await pairCount()
        const replies = [
          await call(quantum('/entangle'), { method: 'POST', json: { particle_type: 'electron' } }),
          await read(pair.particle_id_a),
          await measure(pair.particle_id_a),
        ]
        for (const reply of replies) {
          expect(reply.status).toBe(503)
          expect(reply.headers.get('retry-after')).toBe('90')
          expect(reply.body).toMatchObject({ error: 'service_unavailable', retry_after: 90 })
        }
        expect(await pairCount()).toBe(before)
        const status = await call(quantum('/status'))
        expect(status.status).toBe(200)
        expect(status.body.status).toBe('maintenance')
        await withPlatform({ status: 'operational' })
        expect((await read(pair.particle_id_a)).body.state).toBe('superposition')
      })
    })

    describe('scenarios and state', () => {
      it('seeds the default world with spin and polarization pairs, some collapsed', async () => {
        const { pairs, platform, recent_operations } = (await state()).quantum
        expect(platform).toEqual({ status: 'operational', base_load_percentage: 0, retry_after_seconds: 120 })
        expect(recent_operations).toEqual([])
        const kinds = pairs.map((pair: any) => `${pair.entanglement_mode}/${pair.particles[0].state === 'superposition' ? 'superposition' : 'collapsed'}`)
        expect(kinds.sort()).toEqual([
          'polarization/collapsed',
          'polarization/superposition',
          'polarization/superposition',
          'spin/collapsed',
          'spin/superposition',
          'spin/superposition',
          'spin/superposition',
        ])
        for (const pair of pairs) {
          const [a, b] = pair.particles
          if (a.state === 'superposition') continue
          expect(b.state).toBe(OPPOSITE[a.state])
          expect(b.measurement_axis).toBe(a.measurement_axis)
          const read_ = (await read(a.id)).body
          expect(read_).toMatchObject({ state: a.state, entangled_with: b.id, measurement_axis: a.measurement_axis, last_measured: a.last_measured })
        }
      })

      it('brings a half-measured world back exactly through GET/PUT state, replaying the same outcomes (D24)', async () => {
        const pair = await entangle()
        await measure(pair.particle_id_a, 'x-axis')
        const saved = await state()
        const replay = async () => [(await measure(pair.particle_id_b, '30deg')).body, (await entangle()).particle_id_a, (await measure(pair.particle_id_a, 'z-axis')).body]
        const first = await replay()
        expect((await putState(saved)).status).toBe(200)
        expect(await state()).toEqual(saved)
        expect((await read(pair.particle_id_b)).body.measurement_axis).toBe('x-axis')
        expect(await replay()).toEqual(first)
      })

      it('resets to the seeded pairs', async () => {
        const seeded = (await state()).quantum
        const open = seeded.pairs.find((pair: any) => pair.particles[0].state === 'superposition')
        await measure(open.particles[1].id, 'y-axis')
        await entangle()
        await call(`${base()}/__mock/reset`, { method: 'POST' })
        expect((await state()).quantum).toEqual(seeded)
      })

      it('refuses an invalid or inconsistent quantum state with 400 and the paths of the problems, changing nothing', async () => {
        const before = await state()
        const broken = (change: (quantum: any) => void) => {
          const document = structuredClone(before)
          change(document.quantum)
          return document
        }
        const paths = async (document: unknown) => {
          const reply = await putState(document)
          expect(reply.status).toBe(400)
          return reply.body.details.map((detail: { path: string }) => detail.path).sort()
        }
        const fields = broken((quantum) => {
          quantum.platform.status = 'on fire'
          quantum.pairs[0].particles[0].id = 'has/slash'
          quantum.pairs[0].particles[1].measurement_axis = 'sideways'
        })
        expect(await paths(fields)).toEqual(['quantum.pairs.0.particles.0.id', 'quantum.pairs.0.particles.1.measurement_axis', 'quantum.platform.status'])
        // Pair 0 is a spin pair in superposition: one particle collapsed alone, with a polarization outcome.
        const halfCollapsed = broken((quantum) => {
          quantum.pairs[0].particles[1] = { ...quantum.pairs[0].particles[1], state: 'horizontal', measurement_axis: 'z-axis', last_measured: CLOCK }
        })
        expect(await paths(halfCollapsed)).toEqual(['quantum.pairs.0.particles', 'quantum.pairs.0.particles.1.state'])
        const duplicate = broken((quantum) => {
          quantum.pairs[2].particles[1].id = quantum.pairs[1].particles[0].id
        })
        expect(await paths(duplicate)).toEqual(['quantum.pairs.2.particles.1.id'])
        expect(await state()).toEqual(before)
      })

      describe('the entangled-pairs scenario', () => {
        beforeAll(() => loadScenario(base(), 'entangled-pairs'))
        afterAll(() => loadScenario(base(), 'default'))

        it('has fixed-id pairs in both modes and both states, plus 76 generated pairs', async () => {
          expect((await read('electron-alice')).body).toMatchObject({ entangled_with: 'electron-bob', state: 'superposition', particle_type: 'electron' })
          expect((await read('photon-bob')).body).toMatchObject({ entangled_with: 'photon-alice', state: 'superposition', entanglement_mode: 'polarization' })
          expect((await read('positron-carol')).body).toMatchObject({ state: 'spin_up', measurement_axis: 'z-axis', properties: { spin: 'spin_up' } })
          expect((await read('positron-dave')).body).toMatchObject({ state: 'spin_down', measurement_axis: 'z-axis' })
          expect((await read('photon-dave')).body).toMatchObject({ state: 'vertical', measurement_axis: '22.5deg', properties: { polarization: 'vertical' } })
          expect((await read('photon-carol')).body).toMatchObject({ state: 'horizontal', measurement_axis: '22.5deg' })
          const world = await state()
          expect(world.quantum.pairs).toHaveLength(80)
          expect(world.accounts.users).toHaveLength(48)
          expect(world.core.products.length).toBeGreaterThan(0)
          const collapsed = world.quantum.pairs.filter((pair: any) => pair.particles[0].state !== 'superposition')
          expect(collapsed.map((pair: any) => pair.entanglement_mode).sort()).toEqual([...Array(7).fill('polarization'), ...Array(11).fill('spin')])
        })

        it('lets a fixed particle be measured again and again (the bench does)', async () => {
          for (let i = 0; i < 3; i++) {
            const reply = await measure('positron-carol', 'x-axis')
            expect(reply.status).toBe(200)
            expect(reply.body.correlated_result).toBe('spin_down')
          }
        })
      })
    })
  })
}
