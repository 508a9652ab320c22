import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'

/** `0x` followed by 40 hex digits, in any case. */
const ADDRESS_SHAPE = /^0x[0-9a-fA-F]{40}$/

/** Why a text is not an acceptable address, or `undefined` when it is one (D23). */
export type AddressProblem = 'shape' | 'checksum'

/**
 * The EIP-55 mixed-case checksum form of an address given in any case.
 *
 * @example
 * toChecksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed') // '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
 */
export function toChecksumAddress(address: string): `0x${string}` {
  const hex = address.slice(2).toLowerCase()
  // EIP-55: a letter is upper case when the matching nibble of keccak256(lowercase hex text) is 8 or more.
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex)))
  let out = '0x'
  for (let i = 0; i < 40; i++) out += Number.parseInt(hash[i]!, 16) >= 8 ? hex[i]!.toUpperCase() : hex[i]!
  return out as `0x${string}`
}

/**
 * Checks an address as D23 asks: `0x` + 40 hex digits, all lower case, all
 * upper case or a correct EIP-55 checksum. A mixed-case address whose checksum
 * is wrong is refused, since that is how wallets catch a mistyped address.
 * Gives the EIP-55 form of a good one (one hash either way).
 *
 * @example
 * checkAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed') // { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }
 * checkAddress('0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed') // { problem: 'checksum' }
 */
export function checkAddress(text: string): { address: `0x${string}` } | { problem: AddressProblem } {
  if (!ADDRESS_SHAPE.test(text)) return { problem: 'shape' }
  const address = toChecksumAddress(text)
  const hex = text.slice(2)
  const mixed = hex !== hex.toLowerCase() && hex !== hex.toUpperCase()
  return mixed && address !== text ? { problem: 'checksum' } : { address }
}

/**
 * Why `text` is not an acceptable address (see `checkAddress`), or `undefined`.
 *
 * @example
 * addressProblem('0x1234') // 'shape'
 */
export function addressProblem(text: string): AddressProblem | undefined {
  const checked = checkAddress(text)
  return 'problem' in checked ? checked.problem : undefined
}
