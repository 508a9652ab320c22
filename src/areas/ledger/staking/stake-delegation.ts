import { ApiError, notFound } from '../../../kernel/errors/api-error.js'
import { keccakHex } from '../chain/hex.js'
import type { Ledger } from '../ledger.js'
import { type DelegationFields, delegationMessage } from './delegation-message.js'
import type { DelegateBody, Delegation } from '../schemas.js'
import { delegationDigest, recoverSigner, type SignatureMode } from './signatures.js'

/**
 * A delegation's transaction hash (D23, D24): keccak256 of the UTF-8 text of
 * its canonical message (`delegationMessage`), a line feed, `Signature: ` and
 * the signature in lower case (`none` for a seeded delegation without one).
 * Derived from the delegation only, so the same request always gets the same
 * hash, and two accepted delegations never share one (their signatures differ).
 *
 * @example
 * transactionHash({ delegatorAddress, validatorAddress, amount: '5', nonce: '0' }, '0x…', 31337)
 */
export function transactionHash(fields: DelegationFields, signature: string | null, chainId: number): `0x${string}` {
  return keccakHex(`${delegationMessage(fields, { chainId })}\nSignature: ${signature?.toLowerCase() ?? 'none'}`)
}

/**
 * Accepts a validated `POST /v1/stake/delegate` body (D23), or throws the
 * reason it is refused, in this order: unknown validator 404, validator not
 * active 422, signature of someone else (signing modes) 401, signature
 * already used 409. The delegation goes into the next block (D21).
 *
 * @example
 * const { record, validator } = await submitDelegation(ledger, body, { mode: 'eip191', now: clock.now() })
 */
export async function submitDelegation(ledger: Ledger, body: DelegateBody, options: { mode: SignatureMode; now: Date }): Promise<Delegation> {
  const validator = ledger.validator(body.validatorAddress)
  if (!validator) {
    throw notFound(`No validator with address ${body.validatorAddress}.`, { validator_address: body.validatorAddress })
  }
  if (validator.status !== 'active') {
    throw new ApiError(422, 'validator_not_active', `Validator ${validator.name} (${validator.address}) is ${validator.status} and takes no delegations.`, {
      extra: { validator_address: validator.address, validator_status: validator.status },
    })
  }
  const chain = ledger.chain()
  const fields: DelegationFields = { ...body, nonce: body.nonce ?? 0n }
  if (options.mode !== 'format') {
    const recovered = recoverSigner(delegationDigest(options.mode, fields, { chainId: chain.settings.chain_id }), body.signature)
    const signer = 'address' in recovered ? recovered.address : null
    if (signer === null || signer.toLowerCase() !== body.delegatorAddress.toLowerCase()) {
      const why = 'problem' in recovered ? `it is not a valid signature: ${recovered.problem}` : `it was made by ${signer}, not by the delegator`
      throw new ApiError(401, 'invalid_signature', `The signature does not prove the delegator's consent (${options.mode}): ${why}.`, {
        extra: { signature_mode: options.mode, recovered_address: signer },
      })
    }
  }
  const record: Delegation = {
    transaction_hash: transactionHash(fields, body.signature, chain.settings.chain_id),
    delegator_address: body.delegatorAddress,
    validator_address: validator.address,
    amount: body.amount.toString(),
    nonce: String(fields.nonce),
    signature: body.signature,
    submitted_at: options.now.toISOString(),
    block_height: chain.heightAt(options.now.getTime()) + 1,
  }
  if (!(await ledger.record(record))) {
    const earlier = ledger.usedSignature(body.signature)
    throw new ApiError(409, 'conflict', 'This signature was already used; sign the delegation again with another nonce.', {
      extra: { field: 'signature', ...(earlier ? { transaction_hash: earlier.transaction_hash } : {}) },
    })
  }
  return record
}
