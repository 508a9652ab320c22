import tokensFixture from '../../../fixtures/tokens.json' with { type: 'json' }
import validatorsFixture from '../../../fixtures/validators.json' with { type: 'json' }
import type { StoreOf } from '../../world/section.js'
import type { World } from '../../world/world.js'
import { Chain, type ChainSettings } from './chain/chain.js'
import type { Ledger } from './ledger.js'
import { DEFAULT_CHAIN_ID } from './staking/delegation-message.js'
import type { Delegation, Token, Validator } from './schemas.js'
import { ledgerScenario, ledgerState } from './section-schemas.js'
import { transactionHash } from './staking/stake-delegation.js'

/**
 * The fixtures (D22, D23), as they are: fixtures.test.ts checks that the
 * schemas take them unchanged, addresses in EIP-55 form, so a start does not
 * parse them again (each address's checksum is a Keccak hash).
 */
const fixtureTokens: Token[] = tokensFixture
const fixtureValidators = validatorsFixture as Validator[]

/** D21's default: one block every 6 s of the simulator clock. */
export const DEFAULT_BLOCK_TIME_MS = 6000

/** Area E's place in scenarios and state: `ledger`. */
export const ledgerSectionSchemas = {
  key: 'ledger',
  scenarioSchema: ledgerScenario.optional().describe('Area E: chain, tokens, validators, delegations.'),
  stateSchema: ledgerState.default({ tokens: [], validators: [], delegations: [] }),
} as const

/**
 * The `ledger` section of scenarios and state: chain settings, tokens,
 * validators and delegations. `blockTimeMs` (the `blockTime` option,
 * `--block-time`) wins over a scenario's `block_time`; a state document's
 * settings are taken as they are, so restores are exact.
 */
export function ledgerSection(world: World, ledger: Ledger, options: { blockTimeMs: number | undefined }): StoreOf<typeof ledgerSectionSchemas> {
  return {
    load(input) {
      const scenario = input ?? ledgerScenario.parse({})
      const now = world.clock.now()
      const chain: ChainSettings = {
        chain_id: scenario.chain_id ?? DEFAULT_CHAIN_ID,
        block_time_ms: options.blockTimeMs ?? scenario.block_time ?? DEFAULT_BLOCK_TIME_MS,
        genesis_height: scenario.genesis?.height ?? 0,
        genesis_time: new Date(scenario.genesis?.time ?? now).toISOString(),
        // Only when given, so a chain without them exports as it always did.
        ...(scenario.block_hashes?.length ? { block_hashes: scenario.block_hashes } : {}),
      }
      const blocks = new Chain(chain, world.seed)
      const latest = blocks.latestAt(now.getTime())
      const delegations = scenario.delegations.map((item): Delegation => {
        const fields = { delegatorAddress: item.delegator_address, validatorAddress: item.validator_address, amount: item.amount, nonce: item.nonce }
        const pending = item.status === 'pending'
        return {
          transaction_hash: transactionHash(fields, item.signature ?? null, chain.chain_id),
          delegator_address: item.delegator_address,
          validator_address: item.validator_address,
          amount: item.amount,
          nonce: item.nonce,
          signature: item.signature ?? null,
          // An included one was made in time for the latest block; a pending one just now.
          submitted_at: pending ? now.toISOString() : latest.time,
          block_height: pending ? latest.height + 1 : latest.height,
        }
      })
      return ledger.replace(
        {
          chain,
          tokens: scenario.tokens === 'fixture' ? fixtureTokens : scenario.tokens.map((item) => ({ ...item, token_id: item.token_id ?? item.symbol.toLowerCase() })),
          validators: scenario.validators === 'fixture' ? fixtureValidators : scenario.validators,
          delegations,
        },
        { fixtures: { tokens: scenario.tokens === 'fixture', validators: scenario.validators === 'fixture' } },
      )
    },

    export: (options) => ledger.export(options),

    import: (state, options) =>
      ledger.replace(
        {
          chain: state.chain ?? ledger.chain().settings,
          tokens: state.tokens,
          validators: state.validators,
          // The state API shows `replay_key` instead of the signature; it is all replay protection needs.
          delegations: state.delegations.map(({ status: _derived, signature, ...item }) => ({ ...item, signature: signature ?? null })),
        },
        options,
      ),
  }
}
