import * as z from 'zod'
import validatorsFixture from '../../../fixtures/validators.json' with { type: 'json' }
import { isoTimestamp } from '../../kernel/time/iso-timestamp.js'
import { address, blockHashes, blockTime, chainSettings, decimalInteger, delegation, hash32, positiveDecimal, signature, token, validator } from './schemas.js'
import { signatureKey } from './staking/signatures.js'

// The `ledger` sections of a scenario and of the world state (D25), built from the area's schemas.

const scenarioToken = token.extend({
  token_id: token.shape.token_id.optional().describe('Defaults to the symbol in lower case, which must then be a token id itself (a symbol such as "?" needs one given).'),
})

/** The id a scenario token goes by: its own, or its symbol in lower case. */
const tokenIdOf = (item: { token_id?: string | undefined; symbol: string }) => item.token_id ?? item.symbol.toLowerCase()

const scenarioDelegation = z.strictObject({
  delegator_address: address,
  validator_address: address,
  amount: positiveDecimal,
  nonce: decimalInteger.default('0'),
  signature: signature.optional().describe('Seeded delegations need none; one given is protected against replay like any other.'),
  status: z.enum(['included', 'pending']).default('included').describe('"included": in the latest block when the scenario loads; "pending": in the next one.'),
})

/** The `ledger` section of a scenario. */
export const ledgerScenario = z
  .strictObject({
    chain_id: chainSettings.shape.chain_id.default(31337).describe('Chain id in the signed message and the EIP-712 domain.'),
    block_time: blockTime
      .optional()
      .describe(
        'Time between blocks: a whole number of milliseconds, at least 1, or a duration that comes to one ("6s", "500ms", "1.5m"; not "0s" or "0.5ms"). Default 6 s; the blockTime option (--block-time) wins.',
      ),
    genesis: z
      .strictObject({
        height: z.int().min(0).default(0),
        time: isoTimestamp.optional().describe('Defaults to the simulator clock when the scenario is loaded.'),
      })
      .optional()
      .describe('The first block: the chain grows one block per block time from here (D21).'),
    block_hashes: blockHashes.optional(),
    tokens: z
      .union([z.literal('fixture'), z.array(scenarioToken)])
      .default('fixture')
      .describe('"fixture" loads fixtures/tokens.json; an array replaces it, each token id (default: the symbol in lower case) once.'),
    validators: z
      .union([z.literal('fixture'), z.array(validator)])
      .default('fixture')
      .describe('"fixture" loads fixtures/validators.json; an array replaces it, each address (any case) once.'),
    delegations: z
      .array(scenarioDelegation)
      .default([])
      .describe(
        'Delegations already made when the scenario loads. Each names one of `validators` (the fixture ones unless replaced); a signature is used once; two without a signature differ in delegator, validator, amount or nonce.',
      ),
  })
  .superRefine((scenario, ctx) => {
    if (Array.isArray(scenario.tokens)) {
      scenario.tokens.forEach((item, index) => {
        // A symbol is free text; the id it stands in for is not.
        if (item.token_id === undefined && !token.shape.token_id.safeParse(tokenIdOf(item)).success) {
          ctx.addIssue({
            code: 'custom',
            path: ['tokens', index, 'token_id'],
            message: `is needed: the symbol ${JSON.stringify(item.symbol)} in lower case is no token id (1 to 64 letters, digits, ".", "_" or "-")`,
          })
        }
      })
      unique(ctx, scenario.tokens.map(tokenIdOf), ['tokens'], 'token_id', 'token id')
    }
    const validators = scenario.validators === 'fixture' ? validatorsFixture : scenario.validators
    if (Array.isArray(scenario.validators))
      unique(
        ctx,
        validators.map((item) => item.address.toLowerCase()),
        ['validators'],
        'address',
        'validator address',
      )
    knownValidators(ctx, scenario.delegations, validators)
    unique(
      ctx,
      scenario.delegations.map((item) => item.signature && signatureKey(item.signature)),
      ['delegations'],
      'signature',
      'signature',
    )
    // Unsigned seeded delegations with the same fields would share a transaction hash.
    const unsigned = scenario.delegations.map((item) =>
      item.signature ? undefined : [item.delegator_address, item.validator_address, item.amount, item.nonce].join('/').toLowerCase(),
    )
    unique(ctx, unsigned, ['delegations'], 'nonce', 'delegation: an identical one has no signature either; give one another nonce')
  })
export type LedgerScenario = z.output<typeof ledgerScenario>

/** A delegation in the state: `status` is derived from `block_height` and the clock, and ignored on import. */
export const delegationState = delegation.extend({
  signature: signature.nullable().optional().describe('Never shown by GET /__mock/state, which shows replay_key instead.'),
  replay_key: hash32
    .optional()
    .describe("keccak256 of the signature's r and s (s in its low form): a later delegation with the same r and s, or their high-s mirror, is refused as a replay (D23)."),
  status: z.enum(['pending', 'included']).optional().describe('Derived: "included" once the chain reaches block_height. Ignored on import.'),
})

/** The `ledger` section of the world state. */
export const ledgerState = z
  .strictObject({
    chain: chainSettings.optional().describe('Missing: the chain keeps its current settings.'),
    tokens: z.array(token).default([]).describe('Each token_id once.'),
    validators: z.array(validator).default([]).describe('Each address (any case) once.'),
    delegations: z.array(delegationState).default([]).describe('Each names one of `validators`; each transaction_hash once, and each signature (or replay_key) once.'),
  })
  .superRefine((state, ctx) => {
    unique(
      ctx,
      state.tokens.map((item) => item.token_id),
      ['tokens'],
      'token_id',
      'token id',
    )
    unique(
      ctx,
      state.validators.map((item) => item.address.toLowerCase()),
      ['validators'],
      'address',
      'validator address',
    )
    unique(
      ctx,
      state.delegations.map((item) => item.transaction_hash),
      ['delegations'],
      'transaction_hash',
      'transaction hash',
    )
    unique(
      ctx,
      state.delegations.map((item) => (item.signature ? signatureKey(item.signature) : item.replay_key)),
      ['delegations'],
      'replay_key',
      'signature',
    )
    knownValidators(ctx, state.delegations, state.validators)
  })
export type LedgerState = z.output<typeof ledgerState>

function unique(ctx: z.RefinementCtx, keys: Array<string | null | undefined>, path: string[], field: string, what: string): void {
  const seen = new Set<string>()
  keys.forEach((key, index) => {
    if (key === null || key === undefined) return
    if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [...path, index, field], message: `duplicate ${what}` })
    seen.add(key)
  })
}

function knownValidators(ctx: z.RefinementCtx, delegations: Array<{ validator_address: string }>, validators: Array<{ address: string }>): void {
  const known = new Set(validators.map((item) => item.address.toLowerCase()))
  delegations.forEach((item, index) => {
    if (!known.has(item.validator_address.toLowerCase())) {
      ctx.addIssue({ code: 'custom', path: ['delegations', index, 'validator_address'], message: 'is not one of the validators' })
    }
  })
}
