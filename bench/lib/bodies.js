// @ts-check
// Request bodies the bench sends: user registrations and Area E stake delegations, in format mode or signed by the bench's wallet (eip191).

import { privateKeyToAccount } from 'viem/accounts'
import { delegationMessage } from '../../dist/src/index.js'

/** Area E's default-scenario validator every benchmarked delegation goes to. */
const VALIDATOR = '0x87148ec17A1bD256911257B51321a032a2826C8e'
/** A well-known development key (Anvil/Hardhat account 0): the benchmark's wallet. */
const WALLET = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const AMOUNT = '1000000000000000000'

/**
 * A `POST /admin/api/v1.2/users` body; the username must be new on the server, or it is a 409.
 *
 * @param {string} username
 */
export function registration(username) {
  return JSON.stringify({ username, email: `${username}@example.com`, password: 'Passw0rd!' })
}

/**
 * A `POST /ledger/v1/stake/delegate` body of the benchmark's wallet.
 *
 * @param {string} signature
 * @param {number} [nonce]
 */
export function delegation(signature, nonce = 0) {
  return JSON.stringify({ delegatorAddress: WALLET.address, validatorAddress: VALIDATOR, amount: AMOUNT, nonce, signature })
}

/**
 * A delegation with a shape-only signature (format mode): r carries `r`, s the counter `s`.
 *
 * @param {number | string} r a number, or a 64-hex-digit text such as wrk's `{hex}`
 * @param {number | string} s
 */
export function formatDelegation(r, s) {
  const hex = (/** @type {number | string} */ value) => (typeof value === 'number' ? value.toString(16).padStart(64, '0') : value)
  return delegation(`0x${hex(r)}${hex(s)}1b`)
}

/**
 * Delegations signed by the wallet (eip191 mode recovers the signer), nonces `first` to `first + count - 1`: each is accepted once per server.
 *
 * @param {number} count
 * @param {number} [first]
 */
export async function signedDelegations(count, first = 0) {
  const signed = []
  for (let nonce = first; nonce < first + count; nonce++) {
    const fields = { delegatorAddress: WALLET.address, validatorAddress: VALIDATOR, amount: AMOUNT, nonce }
    signed.push(delegation(await WALLET.signMessage({ message: delegationMessage(fields) }), nonce))
  }
  return signed
}
