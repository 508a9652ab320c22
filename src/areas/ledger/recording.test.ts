import { beforeAll, describe, expect, it } from 'vitest'
import { type RecordingAnswer, recordingUpstream } from '../../../test/support/recording-upstream.js'
import { recorderFor } from '../../simulator/recording/recorder-setup.js'
import { scenarioSchema } from '../../simulator/state/scenario-schema.js'
import type { SimulatorInstance } from '../../simulator/simulator-instance.js'
import { ledgerRecording } from './recording.js'

const BASE = 'http://127.0.0.1:3000/ledger/v1'
const VALIDATOR = '0x87148ec17a1bd256911257b51321a032a2826c8e'
const DELEGATOR = '0x52908400098527886E0F7030069857D2E4169EE7'
const SIGNATURE = `0x${'5a'.repeat(32)}${'3c'.repeat(32)}1b`
/** More digits than a double keeps. */
const AMOUNT = '123456789012345678901234567890'

describe('recording Area E traffic into a scenario', () => {
  const { upstream, recorder, reads, through: send, ask, startReplay, expectReplayed } = recordingUpstream({ areas: ['ledger'], base: BASE, upstream: { scenario: 'default' } })
  const statuses: RecordingAnswer[] = []

  beforeAll(async () => {
    await upstream.ready
    statuses.push(await send('GET', '/status'))
    for (const id of ['usdc', 'weth', 'no-such-token']) await send('GET', `/tokens/${id}`)
    const delegation = { delegatorAddress: DELEGATOR, validatorAddress: VALIDATOR, amount: AMOUNT, nonce: 7, signature: SIGNATURE }
    expect((await send('POST', '/stake/delegate', delegation)).status).toBe(202)
    expect((await send('POST', '/stake/delegate', delegation)).status).toBe(409)
    upstream.clock.advance('60s')
    statuses.push(await send('GET', '/status'))
  })

  it('answers the recorded reads as the upstream did, block hashes included, from the recorded scenario with another seed', async () => {
    const replay = await startReplay()
    expect([...reads.keys()].filter((url) => url.includes('/tokens/'))).toHaveLength(3)
    await expectReplayed(replay, (url) => url.endsWith('/status'))
    expect(await ask(replay, 'GET', '/status')).toEqual(statuses[0])
    // The chain grows as it did upstream: the block time two status answers showed.
    replay.clock.advance('60s')
    expect(await ask(replay, 'GET', '/status')).toEqual(statuses[1])
  })

  it('makes a scenario the schema accepts: the chain seen, the tokens read, no validator invented, no signature', () => {
    const scenario = recorder.scenario()
    expect(scenarioSchema.safeParse(scenario).success).toBe(true)
    const ledger = scenario.ledger!
    const [first, second] = statuses.map((answer) => JSON.parse(answer.text) as { network_height: number; last_block_hash: string; timestamp: string })
    expect(ledger).toEqual({
      genesis: { height: first!.network_height, time: first!.timestamp },
      block_hashes: [
        { height: first!.network_height, hash: first!.last_block_hash },
        { height: second!.network_height, hash: second!.last_block_hash },
      ],
      block_time: 6000,
      tokens: ['usdc', 'weth'].map((id) => JSON.parse(reads.get(`${BASE}/tokens/${id}`)!.text)),
      validators: [],
      delegations: [],
    })
    expect(JSON.stringify(scenario)).not.toContain(SIGNATURE.slice(2, 40))
  })

  it('keeps every digit of a delegated amount, never its signature', () => {
    const observed = ledgerRecording.observe.delegateStake!({
      operationId: 'delegateStake',
      params: {},
      query: new URLSearchParams(),
      status: 202,
      request: undefined,
      requestText: `{"delegatorAddress":"${DELEGATOR}","validatorAddress":"${VALIDATOR}","amount":"${AMOUNT}","nonce":9007199254740991,"signature":"${SIGNATURE}"}`,
      response: { transaction_hash: `0x${'ab'.repeat(32)}`, message: `Delegation of ${AMOUNT} to Aurora accepted for processing; it will be included in block 12.` },
      responseText: undefined,
    })
    expect(observed).toEqual([
      {
        kind: 'upsert',
        section: 'ledger',
        collection: 'delegations',
        id: `0x${'ab'.repeat(32)}`,
        fields: { delegator_address: DELEGATOR, validator_address: '0x87148ec17A1bD256911257B51321a032a2826C8e', amount: AMOUNT, nonce: '9007199254740991', block_height: 12 },
      },
    ])
  })

  it('counts what was kept and says what was left out', () => {
    const [summary] = recorder.summary()
    // The delegation is left out (its validator was never shown), so not counted as kept; a 409 changed nothing upstream.
    expect(summary).toMatchObject({ area: 'ledger', kept: { 'ledger.blocks': 2, 'ledger.tokens': 2 }, mapped: 7, unmapped: 0 })
    expect(summary!.examples).toEqual([])
    expect(summary!.left).toEqual([expect.stringMatching(/^ledger\.delegations\/0x[0-9a-f]{64}: its validator 0x87148ec17A1bD256911257B51321a032a2826C8e is not in the scenario/)])
  })

  it("records no ledger record the traffic did not show: a recorder that saw nothing keeps empty collections, not the start scenario's", () => {
    expect(recorderFor({ dispatcher: (upstream as SimulatorInstance).dispatcher, areas: ['ledger'], description: 'nothing' }).scenario().ledger).toEqual({
      genesis: { height: 0, time: '2025-01-01T00:00:00Z' },
      tokens: [],
      validators: [],
      delegations: [],
    })
  })
})
