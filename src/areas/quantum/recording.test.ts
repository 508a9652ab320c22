import { beforeAll, describe, expect, it } from 'vitest'
import { recordingUpstream } from '../../../test/support/recording-upstream.js'
import { recorderFor } from '../../simulator/recording/recorder-setup.js'
import { scenarioSchema } from '../../simulator/state/scenario-schema.js'
import type { SimulatorInstance } from '../../simulator/simulator-instance.js'

const BASE = 'http://127.0.0.1:3000/quantum/v1'

describe('recording Area C traffic into a scenario', () => {
  const {
    upstream,
    recorder,
    reads,
    through: send,
    ask,
    startReplay,
    expectReplayed,
  } = recordingUpstream({
    areas: ['quantum'],
    base: BASE,
    upstream: { scenario: 'entangled-pairs' },
  })
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    await upstream.ready
    const generated = upstream.exportState().quantum.pairs.slice(4)
    const collapsed = generated.find((pair) => pair.particles[0].state !== 'superposition')!
    const open = generated.filter((pair) => pair.particles[0].state === 'superposition')
    ids.collapsedB = collapsed.particles[1].id
    ids.onlyMeasured = open[0]!.particles[0].id
    ids.orphan = open[1]!.particles[0].id
    ids.orphanPartner = open[1]!.particles[1].id

    // Writes: a new pair measured twice (the second measurement leaves the partner alone), a pair only measured.
    const created = await send('POST', '/entangle', { particle_type: 'proton' })
    ids.newA = created.json.particle_id_a as string
    ids.newB = created.json.particle_id_b as string
    await send('GET', `/particles/${ids.newA}`)
    await send('POST', '/measure', { particle_id: ids.newA, measurement_axis: 'x-axis' })
    await send('POST', '/measure', { particle_id: ids.newB, measurement_axis: '22.5deg' })
    await send('POST', '/measure', { particle_id: ids.onlyMeasured, measurement_axis: 'y-axis' })
    await send('POST', '/measure', { particle_id: 'no-such-particle' })

    // Reads: both particles of some pairs, one particle of others, unknown ids, the status.
    for (const id of [ids.newA, ids.newB, 'positron-carol', 'positron-dave', 'electron-alice', 'photon-carol', ids.collapsedB, ids.orphan, 'no-such-particle']) {
      await send('GET', `/particles/${id}`)
    }
    await send('GET', '/status')
    // A partner that answers 404 (a real backend gone inconsistent): its pair cannot be kept whole.
    recorder.record({
      method: 'GET',
      url: `${BASE}/particles/${ids.orphanPartner}`,
      status: 404,
      responseText: JSON.stringify({ error: 'not_found', message: 'gone', particle_id: ids.orphanPartner }),
    })
  })

  it('answers every recorded read as the upstream did, from the recorded scenario with another seed', async () => {
    const replay = await startReplay()
    expect(reads.size).toBe(10)
    await expectReplayed(replay, (url) => url.endsWith(`/particles/${ids.orphan}`))
  })

  it('makes a scenario the schema accepts: whole pairs, the platform seen, nothing generated', () => {
    const scenario = recorder.scenario()
    expect(scenarioSchema.safeParse(scenario).success).toBe(true)
    const quantum = scenario.quantum!
    expect(quantum.generate).toBeUndefined()
    expect(quantum.platform).toEqual({ status: 'operational', base_load_percentage: 0.67 })
    expect(quantum.pairs!.map((pair) => pair.particle_ids)).toEqual([
      [ids.newA, ids.newB],
      ['positron-carol', 'positron-dave'],
      ['electron-alice', 'electron-bob'],
      ['photon-carol', 'photon-dave'],
      // Which particle was `a` only an entangle answer shows: the one read comes first.
      [ids.collapsedB, expect.any(String)],
    ])
    // The second measurement of the new pair is kept as its own: the partner kept the outcome the first one left it.
    expect(quantum.pairs![0]!.measured).toMatchObject({ particle: 'a', axis: 'x-axis', remeasured: { b: { axis: '22.5deg' } } })
    expect(JSON.stringify(scenario)).not.toMatch(/password|Bearer/i)
  })

  it('derives an unread partner by the area rules: opposite outcome, same axis, same time', async () => {
    const replay = await startReplay()
    const partnerId = recorder.scenario().quantum!.pairs![4]!.particle_ids![1]
    const [upstreamPartner, replayed] = await Promise.all([upstream, replay].map((sim) => ask(sim, 'GET', `/particles/${partnerId}`)))
    expect(replayed).toEqual(upstreamPartner)
  })

  it('counts what was kept and says what was left out', () => {
    const [summary] = recorder.summary()
    expect(summary).toMatchObject({ area: 'quantum', mapped: 17, unmapped: 0 })
    // Particles shown: the new pair, the measured-only pair, 6 read ones besides; the gone ones are not counted.
    expect(summary!.kept).toEqual({ 'quantum.particles': 8 })
    expect(summary!.left).toEqual([
      `quantum.particles/${ids.onlyMeasured}: no answer showed its particle type and creation time (it was only measured)`,
      `quantum.particles/${ids.orphan}: its partner ${ids.orphanPartner} answered 404, and a pair is never half-invented`,
    ])
  })

  it("records no quantum record the traffic did not show: a recorder that saw nothing keeps empty collections, not the start scenario's", () => {
    expect(
      recorderFor({ dispatcher: (upstream as SimulatorInstance).dispatcher, areas: ['quantum'], scenario: 'entangled-pairs', description: 'nothing' }).scenario().quantum,
    ).toEqual({ platform: {}, pairs: [] })
  })
})
