import { type Hex, keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import tokensFixture from '../../fixtures/tokens.json' with { type: 'json' }
import validatorsFixture from '../../fixtures/validators.json' with { type: 'json' }
import { type DelegationFields, delegationMessage, delegationTypedData, type SignatureMode } from '../../src/index.js'
import { call, resetWorld, useDefaultWorld } from '../support/http.js'

/**
 * Area E behaviour, run in-process and over HTTP (see admin.contract.ts).
 * The world is the `default` scenario, seed 1; the suites set the clock to
 * CLOCK themselves and put it back afterwards, since they move it.
 *
 * Every expected value here comes from the seed, the scenario, the fixtures
 * and the request by a documented formula, never from the shared random
 * stream, so the suites hold whatever other areas draw from it.
 */

const CLOCK = '2026-01-01T00:00:00.000Z'
/** The default scenario's genesis is block 0 at 2025-01-01T00:00:00Z; 6 s blocks: 365 days later. */
const HEIGHT_AT_CLOCK = (365 * 24 * 3600) / 6
const SEED = 1

// Well-known development keys (Anvil/Hardhat accounts 0 and 1): never real funds.
const alice = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const bob = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')

const byName = (name: string) => validatorsFixture.find((item) => item.name === name)!.address
const AURORA = byName('Aurora Staking')
const INACTIVE = byName('Granite Chain Services')
const JAILED = byName('Halcyon Node Co.')

/** keccak256("multi-area-mock/ledger/<seed>/<height>") (docs/behaviour.md). */
const blockHashOf = (height: number) => keccak256(toHex(`multi-area-mock/ledger/${SEED}/${height}`))
/** keccak256(canonical message + "\nSignature: " + signature in lower case) (docs/behaviour.md). */
const txHashOf = (fields: DelegationFields, signature: string, chainId = 31337) =>
  keccak256(toHex(`${delegationMessage(fields, { chainId })}\nSignature: ${signature.toLowerCase()}`))

/** A signature of the right shape made of `n`: distinct for every `n`, and low-s. */
const fakeSignature = (n: number) => `0x${'1'.padStart(64, '0')}${n.toString(16).padStart(64, '0')}1b`

/** The world's clock frozen at CLOCK before the scenario loads, and put back at the end. */
function useLedgerWorld(base: () => string): void {
  beforeAll(async () => {
    expect((await call(`${base()}/__mock/clock`, { method: 'POST', json: { mode: 'fixed', set: CLOCK } })).status).toBe(200)
  })
  useDefaultWorld(base)
  afterAll(() => resetWorld(base()))
}

function helpers(base: () => string) {
  const ledger = (path: string) => `${base()}/ledger${path}`
  const advance = async (by: string) => expect((await call(`${base()}/__mock/clock`, { method: 'POST', json: { advance: by } })).status).toBe(200)
  const state = async () => (await call(`${base()}/__mock/state`)).body.ledger
  const delegate = (body: unknown) => call(ledger('/v1/stake/delegate'), { method: 'POST', json: body })
  /** Sends raw JSON text, so numbers reach the server exactly as written. */
  const delegateRaw = (text: string) => call(ledger('/v1/stake/delegate'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: text })
  return { ledger, advance, state, delegate, delegateRaw }
}

/** Area E in signature mode `format` (the default): every endpoint and every error. */
export function describeLedgerContract(base: () => string): void {
  const { ledger, advance, state, delegate, delegateRaw } = helpers(base)
  const body = (n: number, extra: Record<string, unknown> = {}) => ({
    delegatorAddress: alice.address,
    validatorAddress: AURORA,
    amount: '1000000000000000000',
    signature: fakeSignature(n),
    ...extra,
  })

  describe('Area E: ledger', () => {
    useLedgerWorld(base)

    describe('GET /v1/status (D21)', () => {
      it('reports the latest block: active, height from genesis and the clock, hash from seed and height, the block time', async () => {
        const reply = await call(ledger('/v1/status'))
        expect(reply.status).toBe(200)
        expect(reply.body).toEqual({ status: 'active', network_height: HEIGHT_AT_CLOCK, last_block_hash: blockHashOf(HEIGHT_AT_CLOCK), timestamp: CLOCK })
        // Pinned once, so a change of the documented encoding cannot pass unnoticed.
        expect(reply.body.last_block_hash).toBe('0x4939220ab0349d419c7a5aee3c4e72d1422eb64f85f2e91a916364a5cfa2247e')
      })

      it('grows one block per 6 s of a moving fixed clock, and reset puts it back', async () => {
        await advance('5999ms')
        expect((await call(ledger('/v1/status'))).body.network_height).toBe(HEIGHT_AT_CLOCK)
        await advance('1ms')
        const next = (await call(ledger('/v1/status'))).body
        expect(next).toEqual({ status: 'active', network_height: HEIGHT_AT_CLOCK + 1, last_block_hash: blockHashOf(HEIGHT_AT_CLOCK + 1), timestamp: '2026-01-01T00:00:06.000Z' })
        await advance('1h')
        const later = (await call(ledger('/v1/status'))).body
        expect(later.network_height).toBe(HEIGHT_AT_CLOCK + 601)
        expect(later.timestamp).toBe('2026-01-01T01:00:06.000Z')
        await resetWorld(base())
        expect((await call(ledger('/v1/status'))).body.network_height).toBe(HEIGHT_AT_CLOCK)
      })

      it('answers the same while the clock stands still (D24)', async () => {
        const first = await call(ledger('/v1/status'))
        expect((await call(ledger('/v1/status'))).text).toBe(first.text)
      })
    })

    describe('GET /v1/tokens/{tokenId} (D22)', () => {
      it('reads a token: total supply as a decimal string, checksummed contract address', async () => {
        const reply = await call(ledger('/v1/tokens/usdc'))
        expect(reply.status).toBe(200)
        expect(reply.body).toEqual({
          token_id: 'usdc',
          name: 'USD Coin',
          symbol: 'USDC',
          decimals: 6,
          total_supply: '52348126790123456',
          contract_address: '0xbDB0d2fB4a9538a8adFc27849022eed253CE1468',
        })
      })

      it('serves every fixture token exactly, supplies beyond 2^53 intact', async () => {
        for (const item of tokensFixture) {
          const reply = await call(ledger(`/v1/tokens/${item.token_id}`))
          expect(reply.body, item.token_id).toEqual(item)
          expect(reply.text).toContain(`"total_supply":"${item.total_supply}"`)
        }
      })

      it('answers an unknown token with 404 naming it', async () => {
        const reply = await call(ledger('/v1/tokens/nope'))
        expect(reply.status).toBe(404)
        expect(reply.body).toMatchObject({ error: 'not_found', token_id: 'nope' })
        expect(reply.body.message).toContain('nope')
        expect((await call(ledger('/v1/tokens/USDC'))).status).toBe(404)
      })
    })

    describe('POST /v1/stake/delegate (D23)', () => {
      it('accepts a delegation with 202, a deterministic transaction hash and a message', async () => {
        const reply = await delegate(body(1))
        expect(reply.status).toBe(202)
        expect(reply.body).toEqual({ transaction_hash: txHashOf(body(1), fakeSignature(1)), message: expect.stringContaining('accepted for processing') })
        expect(reply.body.message).toContain(`block ${HEIGHT_AT_CLOCK + 1}`)
        // The same request in the same world gives the same hash (D24).
        await resetWorld(base())
        expect((await delegate(body(1))).body.transaction_hash).toBe(reply.body.transaction_hash)
      })

      it('shows the delegation pending in the state, then included in the next block once the clock passes it (D21)', async () => {
        const { transaction_hash } = (await delegate(body(2, { amount: 5 }))).body
        const expected = {
          transaction_hash,
          delegator_address: alice.address,
          validator_address: AURORA,
          amount: '5',
          nonce: '0',
          // The state never shows a signature, only what replay protection compares.
          replay_key: expect.stringMatching(/^0x[0-9a-f]{64}$/),
          submitted_at: CLOCK,
          block_height: HEIGHT_AT_CLOCK + 1,
        }
        expect((await state()).delegations).toContainEqual({ ...expected, status: 'pending' })
        await advance('5s')
        expect((await state()).delegations).toContainEqual({ ...expected, status: 'pending' })
        await advance('1s')
        expect((await state()).delegations).toContainEqual({ ...expected, status: 'included' })
      })

      it('takes addresses in lower case, upper case or EIP-55 form and stores them checksummed', async () => {
        const lower = await delegate(body(3, { delegatorAddress: alice.address.toLowerCase(), validatorAddress: AURORA.toLowerCase() }))
        expect(lower.status).toBe(202)
        const upper = await delegate(body(4, { delegatorAddress: `0x${alice.address.slice(2).toUpperCase()}` }))
        expect(upper.status).toBe(202)
        const stored = (await state()).delegations.filter((item: { transaction_hash: string }) =>
          [lower.body.transaction_hash, upper.body.transaction_hash].includes(item.transaction_hash),
        )
        expect(stored.map((item: { delegator_address: string; validator_address: string }) => [item.delegator_address, item.validator_address])).toEqual([
          [alice.address, AURORA],
          [alice.address, AURORA],
        ])
      })

      it('takes amount as a decimal string of any size or a JSON integer up to 2^53 − 1, read from the raw text', async () => {
        const huge = '115792089237316195423570985008687907853269984665640564039457584007913129639935'
        expect((await delegate(body(5, { amount: huge }))).status).toBe(202)
        const raw = (amount: string, n: number) => delegateRaw(JSON.stringify(body(n)).replace('"amount":"1000000000000000000"', `"amount":${amount}`))
        expect((await raw('9007199254740991', 6)).status).toBe(202)
        const amounts = (await state()).delegations.map((item: { amount: string }) => item.amount)
        expect(amounts).toEqual(expect.arrayContaining([huge, '9007199254740991']))
      })

      it.each([
        ['a JSON number above 2^53 − 1', '12345678901234567890', '2^53'],
        ['an exponent', '1e18', 'exponent'],
        ['a fraction', '1.5', 'whole number'],
        ['zero', '0', 'positive'],
        ['a negative', '-1', 'positive'],
        ['a string that is not digits', '"1e18"', 'decimal string'],
        ['a decimal string of zero', '"0"', 'positive'],
        ['a boolean', 'true', 'positive integer'],
      ])('refuses amount as %s with 400 naming amount, and stores nothing', async (_, amount, mentions) => {
        const reply = await delegateRaw(JSON.stringify(body(7)).replace('"amount":"1000000000000000000"', `"amount":${amount}`))
        expect(reply.status).toBe(400)
        expect(reply.body.error).toBe('validation_failed')
        expect(reply.body.details).toEqual([{ path: 'amount', message: expect.stringContaining(mentions) }])
        expect((await state()).delegations).toHaveLength(2)
      })

      it('lists every problem of a bad body at once (D11)', async () => {
        const reply = await delegate({ delegatorAddress: '0x1234', validatorAddress: 42, signature: '0xabc', nonce: -1 })
        expect(reply.status).toBe(400)
        expect(reply.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['amount', 'delegatorAddress', 'nonce', 'signature', 'validatorAddress'])
        expect((await delegate({})).body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['amount', 'delegatorAddress', 'signature', 'validatorAddress'])
      })

      it('refuses a mixed-case address with a wrong EIP-55 checksum', async () => {
        const index = alice.address.search(/[a-f]/)
        const typo = alice.address.slice(0, index) + alice.address[index]!.toUpperCase() + alice.address.slice(index + 1)
        const reply = await delegate(body(8, { delegatorAddress: typo }))
        expect(reply.status).toBe(400)
        expect(reply.body.details).toEqual([{ path: 'delegatorAddress', message: expect.stringContaining('EIP-55') }])
      })

      it('refuses a signature that is not 0x + 130 hex', async () => {
        for (const signature of [fakeSignature(9).slice(0, -2), `${fakeSignature(9)}00`, fakeSignature(9).replace('0x', ''), `${fakeSignature(9).slice(0, -1)}g`]) {
          const reply = await delegate(body(9, { signature }))
          expect(reply.status, signature).toBe(400)
          expect(reply.body.details[0].path).toBe('signature')
        }
      })

      it('answers D11 body problems like every area: invalid JSON, duplicate keys, wrong type, empty, too large', async () => {
        expect((await delegateRaw('{"amount":')).body.error).toBe('invalid_json')
        // Two amounts: there is no telling which was meant.
        const duplicate = await delegateRaw(JSON.stringify(body(10)).replace('{', '{"amount":"1",'))
        expect(duplicate.status).toBe(400)
        expect(duplicate.body.error).toBe('invalid_json')
        const text = await call(ledger('/v1/stake/delegate'), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body(10)) })
        expect(text.status).toBe(415)
        expect((await delegateRaw('')).status).toBe(400)
        expect((await delegateRaw('[1]')).status).toBe(400)
        const large = await delegateRaw(JSON.stringify(body(10, { padding: 'x'.repeat(1024 * 1024) })))
        expect(large.status).toBe(413)
        expect((await state()).delegations).toHaveLength(2)
      })

      it('refuses an unknown validator with 404 and one that is not active with 422', async () => {
        const unknown = await delegate(body(11, { validatorAddress: alice.address }))
        expect(unknown.status).toBe(404)
        expect(unknown.body).toMatchObject({ error: 'not_found', validator_address: alice.address })
        for (const [address, status] of [
          [INACTIVE, 'inactive'],
          [JAILED, 'jailed'],
        ] as const) {
          const reply = await delegate(body(11, { validatorAddress: address.toLowerCase() }))
          expect(reply.status).toBe(422)
          expect(reply.body).toMatchObject({ error: 'validator_not_active', validator_address: address, validator_status: status })
        }
        expect((await state()).delegations).toHaveLength(2)
      })

      it('checks only the shape of the signature in format mode, even a real one of another key', async () => {
        const signature = await bob.signMessage({ message: delegationMessage(body(0)) })
        expect((await delegate(body(0, { signature }))).status).toBe(202)
      })

      it('refuses a reused signature with 409, even re-encoded, naming the earlier transaction', async () => {
        const first = await delegate(body(12))
        expect(first.status).toBe(202)
        const again = await delegate(body(12, { amount: '2' }))
        expect(again.status).toBe(409)
        expect(again.body).toMatchObject({ error: 'conflict', field: 'signature', transaction_hash: first.body.transaction_hash })
        const reencoded = `0x${fakeSignature(12).slice(2, 130).toUpperCase()}00`
        expect((await delegate(body(12, { signature: reencoded }))).status).toBe(409)
        expect((await state()).delegations).toHaveLength(3)
      })

      it('answers other methods with 405', async () => {
        const reply = await call(ledger('/v1/stake/delegate'))
        expect(reply.status).toBe(405)
        expect(reply.headers.get('allow')).toBe('POST')
      })
    })

    describe('scenario and state', () => {
      it("has the default scenario's fixtures, chain and seeded delegations", async () => {
        const ledgerState = await state()
        expect(ledgerState.chain).toEqual({ chain_id: 31337, block_time_ms: 6000, genesis_height: 0, genesis_time: '2025-01-01T00:00:00.000Z' })
        expect(ledgerState.tokens).toEqual(tokensFixture)
        expect(ledgerState.validators).toEqual(validatorsFixture)
        expect(ledgerState.delegations).toEqual([
          expect.objectContaining({ delegator_address: '0x52908400098527886E0F7030069857D2E4169EE7', status: 'included', block_height: HEIGHT_AT_CLOCK }),
          // EIP-55 of this one is all lower case.
          expect.objectContaining({ delegator_address: '0xde709f2102306220921060314715629080e2fb77', status: 'included', block_height: HEIGHT_AT_CLOCK }),
        ])
      })

      it('round-trips through PUT /__mock/state exactly, including pending delegations and replay protection', async () => {
        const accepted = await delegate(body(13))
        const before = await call(`${base()}/__mock/state`)
        await resetWorld(base())
        expect((await state()).delegations).toHaveLength(2)
        expect((await call(`${base()}/__mock/state`, { method: 'PUT', json: before.body })).status).toBe(200)
        expect((await call(`${base()}/__mock/state`)).body.ledger).toEqual(before.body.ledger)
        expect((await delegate(body(13))).status).toBe(409)
        await advance('6s')
        expect((await state()).delegations).toContainEqual(expect.objectContaining({ transaction_hash: accepted.body.transaction_hash, status: 'included' }))
      })

      it('takes chain settings from the state: block time and genesis move the height', async () => {
        const current = await call(`${base()}/__mock/state`)
        const chain = { chain_id: 31337, block_time_ms: 1000, genesis_height: 10, genesis_time: '2025-12-31T23:59:00Z' }
        const replaced = await call(`${base()}/__mock/state`, { method: 'PUT', json: { ...current.body, ledger: { ...current.body.ledger, chain } } })
        expect(replaced.status).toBe(200)
        expect((await call(ledger('/v1/status'))).body).toMatchObject({ network_height: 70, last_block_hash: blockHashOf(70), timestamp: CLOCK })
      })

      it('refuses an invalid ledger state and changes nothing', async () => {
        const current = await call(`${base()}/__mock/state`)
        const replace = (ledger: Record<string, unknown>) =>
          call(`${base()}/__mock/state`, { method: 'PUT', json: { ...current.body, ledger: { ...current.body.ledger, ...ledger } } })
        const token = await replace({
          tokens: [
            { ...tokensFixture[0], total_supply: 1e30 },
            { ...tokensFixture[1], contract_address: '0x12' },
          ],
        })
        expect(token.status).toBe(400)
        expect(token.body.details.map((detail: { path: string }) => detail.path)).toEqual(['ledger.tokens.0.total_supply', 'ledger.tokens.1.contract_address'])
        const orphan = await replace({ delegations: [{ ...current.body.ledger.delegations[0], validator_address: alice.address }] })
        expect(orphan.body.details).toEqual([{ path: 'ledger.delegations.0.validator_address', message: 'is not one of the validators' }])
        const twice = await replace({ validators: [...validatorsFixture, validatorsFixture[0]] })
        expect(twice.body.details).toEqual([{ path: `ledger.validators.${validatorsFixture.length}.address`, message: 'duplicate validator address' }])
        expect((await call(`${base()}/__mock/state`)).body.ledger).toEqual(current.body.ledger)
      })
    })
  })
}

/**
 * Area E in a signing mode (`eip191` or `eip712`): the server must run in that
 * mode. A real wallet (viem) signs what the exported helpers build.
 */
export function describeLedgerSigningContract(base: () => string, mode: Exclude<SignatureMode, 'format'>): void {
  const { advance, state, delegate } = helpers(base)
  const fields = (extra: Partial<DelegationFields> = {}): DelegationFields => ({
    delegatorAddress: alice.address,
    validatorAddress: AURORA,
    amount: '2500000000000000000',
    ...extra,
  })
  const sign = (account: typeof alice, signed: DelegationFields, how: SignatureMode = mode, chainId?: number): Promise<Hex> =>
    how === 'eip712'
      ? account.signTypedData(delegationTypedData(signed, chainId === undefined ? {} : { chainId }))
      : account.signMessage({ message: delegationMessage(signed, chainId === undefined ? {} : { chainId }) })
  const send = (sent: DelegationFields, signature: string) => delegate({ ...sent, amount: String(sent.amount), signature })

  describe(`Area E: ledger, signature mode ${mode} (D23)`, () => {
    useLedgerWorld(base)

    it('accepts a delegation signed by the delegator, with the documented transaction hash', async () => {
      const signature = await sign(alice, fields())
      const reply = await send(fields(), signature)
      expect(reply.status).toBe(202)
      expect(reply.body.transaction_hash).toBe(txHashOf(fields(), signature))
      await advance('6s')
      const stored = (await state()).delegations.find((item: { transaction_hash: string }) => item.transaction_hash === reply.body.transaction_hash)
      expect(stored).toMatchObject({ status: 'included', block_height: HEIGHT_AT_CLOCK + 1 })
      expect(stored).not.toHaveProperty('signature') // never shown by the state API
      expect(stored.replay_key).toMatch(/^0x[0-9a-f]{64}$/)
    })

    it('accepts the delegator address in lower case: the signed text uses the checksum form', async () => {
      const signature = await sign(alice, fields())
      expect((await send(fields({ delegatorAddress: alice.address.toLowerCase() }), signature)).status).toBe(202)
    })

    it("refuses another key's signature with 401, naming the address it recovers to", async () => {
      const reply = await send(fields(), await sign(bob, fields()))
      expect(reply.status).toBe(401)
      expect(reply.body).toMatchObject({ error: 'invalid_signature', signature_mode: mode, recovered_address: bob.address })
      expect((await state()).delegations).toHaveLength(2)
    })

    it('refuses a signature over other fields, another chain id or the other signing scheme with 401', async () => {
      expect((await send(fields({ amount: '1' }), await sign(alice, fields()))).status).toBe(401)
      expect((await send(fields({ nonce: 1 }), await sign(alice, fields()))).status).toBe(401)
      expect((await send(fields(), await sign(alice, fields(), mode, 1))).status).toBe(401)
      expect((await send(fields(), await sign(alice, fields(), mode === 'eip191' ? 'eip712' : 'eip191'))).status).toBe(401)
    })

    it('refuses a signature that recovers to no key with 401', async () => {
      const reply = await send(fields(), `0x${'0'.repeat(128)}1b`)
      expect(reply.status).toBe(401)
      expect(reply.body).toMatchObject({ error: 'invalid_signature', recovered_address: null })
    })

    it('refuses a reused signature with 409; another nonce makes a new one', async () => {
      const signature = await sign(alice, fields())
      expect((await send(fields(), signature)).status).toBe(202)
      const again = await send(fields(), signature)
      expect(again.status).toBe(409)
      expect(again.body).toMatchObject({ error: 'conflict', field: 'signature' })
      const renewed = fields({ nonce: 1 })
      const next = await send(renewed, await sign(alice, renewed))
      expect(next.status).toBe(202)
      expect((await state()).delegations).toHaveLength(4)
    })

    it('checks against the chain id of the state', async () => {
      const current = await call(`${base()}/__mock/state`)
      const chain = { ...current.body.ledger.chain, chain_id: 1 }
      expect((await call(`${base()}/__mock/state`, { method: 'PUT', json: { ...current.body, ledger: { ...current.body.ledger, chain } } })).status).toBe(200)
      expect((await send(fields(), await sign(alice, fields()))).status).toBe(401)
      const signature = await sign(alice, fields(), mode, 1)
      const reply = await send(fields(), signature)
      expect(reply.status).toBe(202)
      expect(reply.body.transaction_hash).toBe(txHashOf(fields(), signature, 1))
    })
  })
}
