import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { delegationDigest } from '../areas/ledger/index.js'

/** How the implementation checks delegation signatures (D23); `--fixture signature-mode=eip191` when not `format`. */
export type VerifySignatureMode = 'format' | 'eip191' | 'eip712'

/** A delegation body without its signature. */
export interface UnsignedDelegation {
  delegatorAddress: string
  validatorAddress: string
  amount: string
  nonce?: string
}

/**
 * A throw-away delegator: a fresh secp256k1 key, its address, and signatures
 * over delegations as the signature mode wants them: EIP-191 or EIP-712 over
 * the documented message (docs/behaviour.md, Area E), or, in `format` mode,
 * random bytes of the right shape (unique, so no two runs ever replay).
 *
 * @example
 * const delegator = new Delegator('eip191')
 * const body = delegator.sign({ delegatorAddress: delegator.address, validatorAddress, amount: '1' })
 */
export class Delegator {
  readonly address: string
  readonly #key: Uint8Array
  readonly #mode: VerifySignatureMode
  readonly #chainId: number | undefined

  constructor(mode: VerifySignatureMode, chainId?: number) {
    this.#mode = mode
    this.#chainId = chainId
    this.#key = secp256k1.utils.randomSecretKey()
    const publicKey = secp256k1.getPublicKey(this.#key, false)
    this.address = `0x${bytesToHex(keccak_256(publicKey.subarray(1)).subarray(12))}`
  }

  /** The body with its `signature`. */
  sign(delegation: UnsignedDelegation): UnsignedDelegation & { signature: string } {
    if (this.#mode === 'format') {
      const random = secp256k1.utils.randomSecretKey()
      const more = secp256k1.utils.randomSecretKey()
      return { ...delegation, signature: `0x${bytesToHex(random)}${bytesToHex(more)}1b` }
    }
    const digest = delegationDigest(this.#mode, delegation, this.#chainId === undefined ? {} : { chainId: this.#chainId })
    // `recovered` is recovery byte, r, s; Ethereum writes r, s, v (27 + recovery).
    const signed = secp256k1.sign(digest, this.#key, { prehash: false, format: 'recovered' })
    return { ...delegation, signature: `0x${bytesToHex(signed.subarray(1))}${(27 + signed[0]!).toString(16)}` }
  }
}

/** A valid address that no implementation holds a validator at: random. */
export function randomAddress(): string {
  return `0x${bytesToHex(secp256k1.utils.randomSecretKey().subarray(0, 20))}`
}
