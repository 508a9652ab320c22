import { checkAddress } from '../chain/addresses.js'

/** Chain id of the simulated ledger unless a scenario sets another (`ledger.chain_id`): the usual local development chain id. */
export const DEFAULT_CHAIN_ID = 31337

/** The EIP-712 domain's `name` and `version` (docs/behaviour.md, Area E). */
export const DELEGATION_DOMAIN = { name: 'multi-area-mock ledger', version: '1' } as const

/** The EIP-712 type of a delegation; field names follow the request body. */
export const DELEGATION_TYPES = {
  Delegation: [
    { name: 'delegatorAddress', type: 'address' },
    { name: 'validatorAddress', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
  ],
} as const

/** What a delegation signature covers: the body of `POST /v1/stake/delegate` without the signature. */
export interface DelegationFields {
  delegatorAddress: string
  validatorAddress: string
  /** Smallest units: a bigint, a decimal string or a safe integer. */
  amount: bigint | string | number
  /** Lets the same delegation be signed (and sent) again; default 0. */
  nonce?: bigint | string | number | undefined
}

export interface DelegationSigningOptions {
  /** The ledger's chain id (`ledger.chain_id` of the scenario); default 31337. */
  chainId?: number | undefined
}

/** The EIP-712 typed data of a delegation, in the shape viem's `signTypedData` takes. */
export interface DelegationTypedData {
  domain: { name: string; version: string; chainId: number }
  types: typeof DELEGATION_TYPES
  primaryType: 'Delegation'
  message: { delegatorAddress: `0x${string}`; validatorAddress: `0x${string}`; amount: bigint; nonce: bigint }
}

/**
 * The canonical text a wallet signs with EIP-191 `personal_sign` in signature
 * mode `eip191` (D23): fixed lines, addresses in EIP-55 form, integers in plain
 * decimal, joined by `\n`. The simulator rebuilds exactly this text from the
 * request, so sign what this returns.
 *
 * @example
 * const message = delegationMessage({ delegatorAddress: account.address, validatorAddress, amount: '1000000000000000000' })
 * const signature = await account.signMessage({ message })
 */
export function delegationMessage(delegation: DelegationFields, options: DelegationSigningOptions = {}): string {
  const { delegatorAddress, validatorAddress, amount, nonce } = normalise(delegation)
  return [
    'Delegate stake on multi-area-mock ledger',
    `Chain ID: ${options.chainId ?? DEFAULT_CHAIN_ID}`,
    `Delegator: ${delegatorAddress}`,
    `Validator: ${validatorAddress}`,
    `Amount: ${amount}`,
    `Nonce: ${nonce}`,
  ].join('\n')
}

/**
 * The EIP-712 typed data a wallet signs (`eth_signTypedData_v4`) in signature
 * mode `eip712` (D23). `amount` and `nonce` are bigints, as viem expects; for a
 * raw JSON-RPC call write them as decimal strings.
 *
 * @example
 * const signature = await account.signTypedData(delegationTypedData({ delegatorAddress: account.address, validatorAddress, amount: 10n ** 18n }))
 */
export function delegationTypedData(delegation: DelegationFields, options: DelegationSigningOptions = {}): DelegationTypedData {
  return {
    domain: { ...DELEGATION_DOMAIN, chainId: options.chainId ?? DEFAULT_CHAIN_ID },
    types: DELEGATION_TYPES,
    primaryType: 'Delegation',
    message: normalise(delegation),
  }
}

function normalise(delegation: DelegationFields): DelegationTypedData['message'] {
  return {
    delegatorAddress: checkedAddress(delegation.delegatorAddress, 'delegatorAddress'),
    validatorAddress: checkedAddress(delegation.validatorAddress, 'validatorAddress'),
    amount: BigInt(delegation.amount),
    nonce: BigInt(delegation.nonce ?? 0),
  }
}

function checkedAddress(text: string, name: string): `0x${string}` {
  const checked = checkAddress(text)
  if ('address' in checked) return checked.address
  throw new TypeError(`${name} "${text}" is not an address: ${checked.problem === 'shape' ? 'expected 0x and 40 hex digits' : 'wrong EIP-55 checksum'}.`)
}
