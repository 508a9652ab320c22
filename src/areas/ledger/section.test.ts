import { describe, expect, it } from 'vitest'
import tokensFixture from '../../../fixtures/tokens.json' with { type: 'json' }
import { createSimulator, ScenarioError } from '../../index.js'
import { blockHash } from './chain/chain.js'
import { transactionHash } from './staking/stake-delegation.js'

const CLOCK = '2026-01-01T00:00:00Z'
const VALIDATOR = '0xd1220a0cf47c7b9be7a2e6ba89f429762e7b9adb'
const DELEGATOR = '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359'
const SIGNATURE = `0x${'1'.padStart(64, '0')}${'2'.padStart(64, '0')}1c`
const AURORA = '0x87148ec17A1bD256911257B51321a032a2826C8e'
const delegate = (body: unknown) =>
  new Request('http://x/ledger/v1/stake/delegate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

const scenario = {
  ledger: {
    chain_id: 5,
    block_time: '6s',
    genesis: { height: 100, time: '2025-12-31T23:59:00Z' },
    tokens: [{ name: 'Test Token', symbol: 'TST', decimals: 2, total_supply: '123456789012345678901', contract_address: DELEGATOR }],
    validators: [{ address: VALIDATOR, name: 'Solo Validator', commission: 1.5, status: 'active' as const }],
    delegations: [
      { delegator_address: DELEGATOR, validator_address: VALIDATOR, amount: '10' },
      { delegator_address: DELEGATOR, validator_address: VALIDATOR, amount: '20', nonce: '4', signature: SIGNATURE, status: 'pending' as const },
    ],
  },
}

describe('the ledger section of scenarios and state', () => {
  it('loads chain settings, tokens, validators and seeded delegations, addresses in EIP-55 form', async () => {
    const sim = createSimulator({ seed: 3, clock: CLOCK, scenario })
    await sim.ready
    const { ledger } = sim.exportState()
    expect(ledger.chain).toEqual({ chain_id: 5, block_time_ms: 6000, genesis_height: 100, genesis_time: '2025-12-31T23:59:00.000Z' })
    expect(ledger.tokens).toEqual([{ ...scenario.ledger.tokens[0], token_id: 'tst', contract_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' }])
    expect(ledger.validators[0]!.address).toBe('0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb')
    // 60 s after genesis: block 110 is the latest.
    const fields = { delegatorAddress: DELEGATOR, validatorAddress: VALIDATOR }
    expect(ledger.delegations).toEqual([
      {
        transaction_hash: transactionHash({ ...fields, amount: '10', nonce: '0' }, null, 5),
        delegator_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
        validator_address: '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
        amount: '10',
        nonce: '0',
        submitted_at: '2026-01-01T00:00:00.000Z',
        block_height: 110,
        status: 'included',
      },
      expect.objectContaining({ transaction_hash: transactionHash({ ...fields, amount: '20', nonce: '4' }, SIGNATURE, 5), block_height: 111, status: 'pending' }),
    ])
    sim.clock.advance('6s')
    expect(sim.exportState().ledger.delegations.map((item) => item.status)).toEqual(['included', 'included'])
    const status = await sim.fetch(new Request('http://x/ledger/v1/status'))!.then((reply) => reply.json())
    expect(status).toEqual({ status: 'active', network_height: 111, last_block_hash: blockHash(3, 111), timestamp: '2026-01-01T00:00:06.000Z' })
  })

  it('protects a seeded signature against replay', async () => {
    const sim = createSimulator({ clock: CLOCK, scenario })
    const body = { delegatorAddress: DELEGATOR, validatorAddress: VALIDATOR, amount: '1', signature: SIGNATURE }
    const reply = await sim.fetch(delegate(body))!
    expect(reply.status).toBe(409)
  })

  it('protects a seeded signature against its high-s mirror too (format mode, D23), and refuses a scenario holding both', async () => {
    // SIGNATURE is (r = 1, s = 2, v = 28); its mirror (1, n − 2, 27) is the same signature to anyone without the key.
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
    const mirror = `0x${'1'.padStart(64, '0')}${(N - 2n).toString(16)}1b`
    const sim = createSimulator({ clock: CLOCK, scenario })
    const reply = await sim.fetch(delegate({ delegatorAddress: DELEGATOR, validatorAddress: VALIDATOR, amount: '1', signature: mirror }))!
    expect(reply.status).toBe(409)
    const seeded = sim.exportState().ledger.delegations[1]!
    expect(await reply.json()).toMatchObject({ error: 'conflict', field: 'signature', transaction_hash: seeded.transaction_hash })
    const both = { ledger: { ...scenario.ledger, delegations: [...scenario.ledger.delegations, { ...scenario.ledger.delegations[1]!, nonce: '5', signature: mirror }] } }
    expect(() => createSimulator({ scenario: both })).toThrow(expect.objectContaining({ details: [expect.objectContaining({ path: 'ledger.delegations.2.signature' })] }))
  })

  it('never shows a signature in the state, yet a world restored from it still refuses the replay', async () => {
    const sim = createSimulator({ clock: CLOCK, scenario })
    await sim.ready
    const state = sim.exportState()
    expect(JSON.stringify(state)).not.toContain(SIGNATURE.slice(2, 40))
    expect(JSON.stringify(sim.snapshot())).toContain(SIGNATURE)
    const restored = createSimulator({ clock: CLOCK, scenario: 'empty' })
    await restored.importState(state)
    const body = { delegatorAddress: DELEGATOR, validatorAddress: VALIDATOR, amount: '1', signature: `${SIGNATURE.slice(0, 130)}00` }
    expect((await restored.fetch(delegate(body))!).status).toBe(409)
    expect(restored.exportState().ledger).toEqual(state.ledger)
  })

  it('gives a scenario without a ledger section the fixtures and a chain starting at the clock', async () => {
    const sim = createSimulator({ clock: CLOCK, scenario: 'pending-users' })
    await sim.ready
    const { ledger } = sim.exportState()
    expect(ledger.tokens).toEqual(tokensFixture)
    expect(ledger.chain).toEqual({ chain_id: 31337, block_time_ms: 6000, genesis_height: 0, genesis_time: '2026-01-01T00:00:00.000Z' })
    expect(ledger.delegations).toEqual([])
  })

  it('refuses delegations to unknown validators, duplicate ids and indistinguishable unsigned delegations', () => {
    const refused = (ledger: Record<string, unknown>) => {
      try {
        createSimulator({ scenario: { ledger: { ...scenario.ledger, ...ledger } } })
      } catch (error) {
        expect(error).toBeInstanceOf(ScenarioError)
        return (error as ScenarioError).details.map((detail) => detail.path)
      }
      throw new Error('expected a ScenarioError')
    }
    expect(refused({ delegations: [{ ...scenario.ledger.delegations[0], validator_address: DELEGATOR }] })).toEqual(['ledger.delegations.0.validator_address'])
    expect(refused({ tokens: [...scenario.ledger.tokens, { ...scenario.ledger.tokens[0], symbol: 'tst' }] })).toEqual(['ledger.tokens.1.token_id'])
    expect(refused({ delegations: [scenario.ledger.delegations[0], scenario.ledger.delegations[0]] })).toEqual(['ledger.delegations.1.nonce'])
    expect(refused({ validators: 'fixture' })).toEqual(['ledger.delegations.0.validator_address', 'ledger.delegations.1.validator_address'])
    expect(refused({ block_time: '0s' })).toEqual(['ledger.block_time'])
  })

  it('refuses a token without token_id whose symbol in lower case is no token id, at its token_id; given one, any symbol and the zero address load', async () => {
    const zero = `0x${'0'.repeat(40)}`
    const odd = { name: 'x', symbol: '?', decimals: 0, total_supply: '1', contract_address: zero }
    let refused: unknown
    try {
      createSimulator({ scenario: { ledger: { tokens: [odd] } } })
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(ScenarioError)
    expect((refused as ScenarioError).details).toEqual([
      { path: 'ledger.tokens.0.token_id', message: 'is needed: the symbol "?" in lower case is no token id (1 to 64 letters, digits, ".", "_" or "-")' },
    ])
    const sim = createSimulator({
      scenario: {
        ledger: {
          tokens: [
            { ...odd, token_id: 'x' },
            { ...odd, symbol: 'Ünï 2', token_id: 'uni-2' },
          ],
        },
      },
    })
    await sim.ready
    expect(sim.exportState().ledger.tokens).toEqual([
      { ...odd, token_id: 'x' },
      { ...odd, symbol: 'Ünï 2', token_id: 'uni-2' },
    ])
    const reply = await sim.fetch(new Request('http://x/ledger/v1/tokens/x'))!
    expect([reply.status, await reply.json()]).toEqual([200, { ...odd, token_id: 'x' }])
  })

  it('restores a snapshot exactly: delegations, their blocks and replay protection', async () => {
    const sim = createSimulator({ clock: CLOCK })
    await sim.ready
    const snapshot = sim.snapshot()
    const post = () => sim.fetch(delegate({ delegatorAddress: DELEGATOR, validatorAddress: AURORA, amount: '1', signature: SIGNATURE }))!
    expect((await post()).status).toBe(202)
    const after = sim.snapshot()
    await sim.restore(snapshot)
    expect(sim.snapshot().ledger).toEqual(snapshot.ledger)
    expect((await post()).status).toBe(202)
    await sim.restore(after)
    expect(sim.snapshot().ledger).toEqual(after.ledger)
    expect((await post()).status).toBe(409)
  })
})
