/**
 * Area E replay protection against signature malleability (D23), over HTTP
 * against the real CLI (`npm run bundle-cli` first): `(r, s, v)` and its
 * mirror `(r, n − s, other v)` are the same signature, in every mode.
 */
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import validatorsFixture from '../fixtures/validators.json' with { type: 'json' }
import { delegationMessage } from '../src/index.js'
import { type CliServer, startCli } from './support/cli-server.js'
import { call } from './support/http.js'

const CLOCK = '2026-01-01T00:00:00Z'
/** secp256k1's group order. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
// A well-known development key (Anvil/Hardhat account 0): never real funds.
const alice = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const AURORA = validatorsFixture.find((item) => item.name === 'Aurora Staking')!.address
const fields = { delegatorAddress: alice.address, validatorAddress: AURORA, amount: '2500000000000000000' }

const hex64 = (value: bigint) => value.toString(16).padStart(64, '0')
/** The other form of a signature: s ↔ n − s, and v flipped (27 ↔ 28, 0 ↔ 1). */
function mirrored(signature: string): string {
  const s = BigInt(`0x${signature.slice(66, 130)}`)
  const v = Number.parseInt(signature.slice(130), 16)
  const flipped = v === 27 ? 28 : v === 28 ? 27 : 1 - v
  return `${signature.slice(0, 66)}${hex64(N - s)}${flipped.toString(16).padStart(2, '0')}`
}

function useServer(args: string[]): () => string {
  let server: CliServer
  beforeAll(async () => {
    server = await startCli(['--quiet', '--seed', '1', '--clock', CLOCK, ...args])
  })
  afterAll(async () => {
    await server?.stop()
  })
  return () => server.url
}

const delegate = (base: string, signature: string) => call(`${base}/ledger/v1/stake/delegate`, { method: 'POST', json: { ...fields, signature } })
const delegations = async (base: string) => (await call(`${base}/__mock/state`)).body.ledger.delegations as unknown[]

describe('format mode (shape only): the mirror of a used signature is a replay', () => {
  const base = useServer([])
  const signature = `0x${'7'.repeat(64)}${hex64(0x1234n)}1b`

  it('answers the mirror exactly as the plain replay: 409 conflict naming the earlier transaction', async () => {
    const seeded = (await delegations(base())).length
    const first = await delegate(base(), signature)
    expect(first.status).toBe(202)
    const replay = await delegate(base(), signature)
    expect(replay.status).toBe(409)
    expect(replay.body).toEqual({ error: 'conflict', message: expect.any(String), field: 'signature', transaction_hash: first.body.transaction_hash })
    for (const variant of [mirrored(signature), mirrored(signature).toUpperCase().replace('0X', '0x'), `${mirrored(signature).slice(0, 130)}01`]) {
      const reply = await delegate(base(), variant)
      expect(reply.status, variant).toBe(409)
      expect(reply.body, variant).toEqual(replay.body)
    }
    expect(await delegations(base())).toHaveLength(seeded + 1)
  })

  it('refuses the low-s form of a used high-s signature the same way', async () => {
    const high = `0x${'5'.repeat(64)}${hex64(N - 0x99n)}1c`
    const first = await delegate(base(), high)
    expect(first.status).toBe(202)
    const reply = await delegate(base(), mirrored(high))
    expect(reply.status).toBe(409)
    expect(reply.body).toMatchObject({ error: 'conflict', field: 'signature', transaction_hash: first.body.transaction_hash })
  })
})

describe('eip191 mode: the mirror never gets in (401, EIP-2), the plain replay is 409', () => {
  const base = useServer(['--signature-mode', 'eip191'])

  it('accepts the wallet signature once', async () => {
    const signature = await alice.signMessage({ message: delegationMessage({ ...fields, nonce: 9n }) })
    const body = { ...fields, nonce: '9', signature }
    const send = (sent: string) => call(`${base()}/ledger/v1/stake/delegate`, { method: 'POST', json: { ...body, signature: sent } })
    expect((await send(signature)).status).toBe(202)
    const mirror = await send(mirrored(signature))
    expect(mirror.status).toBe(401)
    expect(mirror.body).toMatchObject({ error: 'invalid_signature', signature_mode: 'eip191', recovered_address: null })
    expect(mirror.body.message).toContain('EIP-2')
    expect((await send(signature)).body).toMatchObject({ error: 'conflict', field: 'signature' })
  })
})
