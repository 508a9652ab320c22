import * as z from 'zod'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { parseDuration } from '../../kernel/time/sim-clock.js'
import { isoTimestamp } from '../../kernel/time/iso-timestamp.js'
import { addressProblem, checkAddress } from './chain/addresses.js'
import { bigIntegerJsonSchema, decimalPattern, MAX_UINT256, readBigInteger } from './staking/amounts.js'

// ---------------------------------------------------------------------------
// Building blocks

const addressText = z
  .string('must be a string: 0x followed by 40 hex digits')
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x followed by 40 hex digits')
  .describe('0x followed by 40 hex digits: all lower case, all upper case, or mixed case that is a correct EIP-55 checksum.')
const BAD_CHECKSUM = 'mixes upper and lower case but is not a valid EIP-55 checksum; check for a typo, or send it all in lower case'

/** An address (D23): `0x` + 40 hex, all lower, all upper or a correct EIP-55 checksum. */
export const address = addressText.superRefine((text, ctx) => {
  if (addressProblem(text) === 'checksum') ctx.addIssue({ code: 'custom', message: BAD_CHECKSUM })
})

/** An address as `address` checks it, given back in EIP-55 form. */
const checksummedAddress = addressText.transform((text, ctx) => {
  const checked = checkAddress(text)
  if ('address' in checked) return checked.address
  if (checked.problem === 'checksum') ctx.addIssue({ code: 'custom', message: BAD_CHECKSUM })
  return z.NEVER
})

/** A 65-byte signature as `0x` + 130 hex: r, s, v (D23). */
export const signature = z
  .string('must be a string: 0x followed by 130 hex digits')
  .regex(/^0x[0-9a-fA-F]{130}$/, 'must be 0x followed by 130 hex digits (r, s and v of a 65-byte signature)')

/** A decimal string as state and scenarios store big amounts: digits, no leading zeros, up to 2^256 − 1 (one pattern, range included). */
function storedDecimal(allowZero: boolean) {
  const shape = /^(0|[1-9]\d*)$/
  return z.string('must be a decimal string').regex(new RegExp(decimalPattern(MAX_UINT256, { allowZero, leadingZeros: false })), {
    error: (issue) =>
      !shape.test(String(issue.input))
        ? 'must be a decimal string of an integer (digits only, no leading zeros)'
        : issue.input === '0'
          ? 'must be positive'
          : 'must be at most 2^256 − 1',
  })
}
/** A non-negative integer up to 2^256 − 1 written in decimal. */
export const decimalInteger = storedDecimal(true).meta({ id: 'Uint256' })
/** A positive integer up to 2^256 − 1 written in decimal. */
export const positiveDecimal = storedDecimal(false).meta({ id: 'PositiveUint256' })

/** A `0x` + 64 lowercase hex hash. */
export const hash32 = z.string().regex(/^0x[0-9a-f]{64}$/, 'must be 0x followed by 64 lowercase hex digits')

/**
 * `amount` or `nonce` of a request body, read from the raw JSON text (see
 * `readBigInteger`): a decimal string or a JSON integer within 2^53 − 1.
 */
function bigIntegerInput(options: { allowZero: boolean; description: string }) {
  return (
    z
      .unknown()
      .transform((input, ctx) => {
        const result = readBigInteger(input, options)
        if ('value' in result) return result.value
        ctx.addIssue({ code: 'custom', message: result.problem })
        return z.NEVER
      })
      // What a client may send, from the same bounds `readBigInteger` checks (a test holds them together).
      .meta({ ...bigIntegerJsonSchema(options), description: options.description }) as unknown as z.ZodType<bigint, string | number>
  )
}

const BLOCK_TIME = 'must be a whole number of milliseconds (at least 1) or a duration such as "6s", "500ms", "1m"'

/** A duration as text: a number of milliseconds, or a number with `ms`, `s`, `m`, `h` or `d`; never negative (what `parseDuration` reads, less the sign). */
const BLOCK_TIME_TEXT = /^\s*\d+(?:\.\d+)?\s*(?:ms|s|m|h|d)?\s*$/

/**
 * A duration as in `POST /__mock/clock`, here a whole number of ms ≥ 1: an
 * integer of milliseconds, or text like `"6s"` (`BLOCK_TIME_TEXT`) that comes
 * to one. The JSON Schema says the integer and the pattern; that the text
 * comes to at least 1 whole ms (not `"0s"`, `"0.5ms"`) only its description.
 *
 * @example
 * blockTime.parse('6s') // 6000
 */
export const blockTime = z.union([z.int(BLOCK_TIME).min(1, BLOCK_TIME), z.string(BLOCK_TIME).regex(BLOCK_TIME_TEXT, BLOCK_TIME)], BLOCK_TIME).transform((value, ctx) => {
  try {
    const ms = parseDuration(value)
    if (Number.isSafeInteger(ms) && ms >= 1) return ms
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
  }
  ctx.addIssue({ code: 'custom', message: BLOCK_TIME })
  return z.NEVER
})

// ---------------------------------------------------------------------------
// Records

/** A token (spec Area E, D22). `total_supply` is a decimal string: most supplies exceed 2^53. */
export const token = z.object({
  token_id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1 to 64 letters, digits, ".", "_" or "-"'),
  name: z.string().min(1).max(100),
  symbol: z.string().min(1).max(16),
  decimals: z.int().min(0).max(18),
  total_supply: decimalInteger,
  contract_address: address,
})
export type Token = z.infer<typeof token>

export const validatorStatus = z.enum(['active', 'inactive', 'jailed'])

/** A validator (D23). Only `active` ones take delegations. `commission` is a percentage of rewards. */
export const validator = z.object({
  address,
  name: z.string().min(1).max(100),
  commission: z.number().min(0).max(100),
  status: validatorStatus,
})
export type Validator = z.infer<typeof validator>

/** An accepted delegation as stored: the block that includes it is fixed when it is accepted (D21, D23). */
export const delegation = z.object({
  transaction_hash: hash32,
  delegator_address: address,
  validator_address: address,
  amount: positiveDecimal,
  nonce: decimalInteger,
  /** `null` for delegations a scenario seeded without one. */
  signature: signature.nullable(),
  /** What replay protection compares (`signatureKey`); shown by the state API instead of the signature. */
  replay_key: hash32.optional(),
  submitted_at: isoTimestamp,
  block_height: z.int().min(0),
})
export type Delegation = z.infer<typeof delegation>

/** Hashes given to some blocks (a recorded chain's), in place of the ones derived from the seed (D21); each height once. */
export const blockHashes = z
  .array(z.strictObject({ height: z.int().min(0), hash: hash32 }))
  .superRefine((blocks, ctx) => {
    const seen = new Set<number>()
    blocks.forEach((block, index) => {
      if (seen.has(block.height)) ctx.addIssue({ code: 'custom', path: [index, 'height'], message: 'duplicate block height' })
      seen.add(block.height)
    })
  })
  .describe("Blocks whose hash is given (a recorded chain's) in place of the one derived from the seed; each height once.")

/** The chain's settings (D21) as the state shows them. */
export const chainSettings = z.strictObject({
  chain_id: z.int().min(1).max(Number.MAX_SAFE_INTEGER),
  block_time_ms: z.int().min(1),
  genesis_height: z.int().min(0),
  genesis_time: isoTimestamp,
  block_hashes: blockHashes.optional(),
})

// ---------------------------------------------------------------------------
// Requests and responses

/**
 * `POST /v1/stake/delegate` (spec Area E, D23). The body is parsed with
 * `parseLosslessJson`, so `amount` and `nonce` arrive with their raw number
 * text. `nonce` is an extension (default 0): it lets a wallet sign the same
 * delegation again, since a used signature is refused.
 */
export const delegateBody = z.object({
  delegatorAddress: checksummedAddress,
  validatorAddress: checksummedAddress,
  amount: bigIntegerInput({
    allowZero: false,
    description:
      'A positive integer in the smallest unit, at most 2^256 − 1: a decimal string of digits, or a JSON integer up to 2^53 − 1 written without a decimal point or exponent (a larger JSON number is refused: precision may be lost).',
  }),
  nonce: bigIntegerInput({
    allowZero: true,
    description: 'Default 0; sign the same delegation again with another nonce, since a used signature is refused. Same forms as `amount`.',
  }).optional(),
  signature: signature.describe("The delegator's signature, 0x + 130 hex (r, s, v): checked for shape only, or recovered by EIP-191 or EIP-712, as the simulator is set up (D23)."),
})
export type DelegateBody = z.output<typeof delegateBody>

/** `GET /v1/status` (spec Area E, D21). */
export const networkStatus = z
  .object({
    status: z.literal('active'),
    network_height: z.int().min(0).describe('Height of the latest block: one more per block time of the simulator clock.'),
    last_block_hash: hash32.describe('Hash of the latest block, derived from the seed and the height.'),
    timestamp: isoTimestamp.describe('When the latest block was made.'),
  })
  .meta({ id: 'LedgerStatus', description: 'The latest block of the simulated chain (D21).' })

/** `{tokenId}` of `GET /v1/tokens/{tokenId}`. */
export const tokenParams = z.object({ tokenId: z.string().min(1).describe('Id of a token, e.g. `usdc`.') })

/** A token as `GET /v1/tokens/{tokenId}` answers it (D22). */
export const tokenView = token.meta({ id: 'Token', description: 'A token; `total_supply` is a decimal string in the smallest unit (D22).' })

/** `202` of `POST /v1/stake/delegate` (D23). */
export const delegationResult = z
  .object({
    transaction_hash: hash32,
    message: z.string().describe('Names the validator and the block that will include the delegation.'),
  })
  .meta({ id: 'DelegationResult', description: 'A delegation accepted for processing (D23).' })

/** Extra fields of Area E's errors: what was looked for or refused. */
export const unknownTokenExtra = z.object({ token_id: z.string() })
export const unknownValidatorExtra = z.object({ validator_address: z.string() })
export const inactiveValidatorExtra = z.object({ validator_address: z.string(), validator_status: validatorStatus.exclude(['active']) })
export const invalidSignatureExtra = z.object({
  signature_mode: z.enum(['eip191', 'eip712']),
  recovered_address: z.string().nullable().describe('Who signed instead; `null` when no signer can be recovered.'),
})
export const usedSignatureExtra = z.object({
  field: z.literal('signature'),
  transaction_hash: hash32.optional().describe('The delegation that used the signature first.'),
})
