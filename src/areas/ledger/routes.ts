import type * as z from 'zod'
import { notFound } from '../../kernel/errors/api-error.js'
import { json } from '../../kernel/http/json/json-response.js'
import { defineRoute, jsonBody } from '../../kernel/routing/route.js'
import type { World } from '../../world/world.js'
import { parseLosslessJson } from './staking/amounts.js'
import type { Ledger } from './ledger.js'
import type { LedgerSettings } from './ledger-options.js'
import {
  delegateBody,
  delegationResult,
  inactiveValidatorExtra,
  invalidSignatureExtra,
  networkStatus,
  tokenParams,
  tokenView,
  unknownTokenExtra,
  unknownValidatorExtra,
  usedSignatureExtra,
} from './schemas.js'
import { submitDelegation } from './staking/stake-delegation.js'

/** Any well-formed signature passes the default `format` mode; the examples use this one. */
const EXAMPLE_SIGNATURE = `0x${'5a'.repeat(32)}${'3c'.repeat(32)}1b`
const EXAMPLE_DELEGATOR = '0x52908400098527886E0F7030069857D2E4169EE7'

/** What Area E's routes work on. */
export interface LedgerRouteContext {
  world: World
  ledger: Ledger
  settings: LedgerSettings
}

/**
 * Area E: the ledger network under `/v1`; success codes per D10.
 * Its return type is inferred, not declared: the operation types (operations.ts) are read from it.
 */
export function ledgerRoutes({ world, ledger, settings }: LedgerRouteContext) {
  const someValidator = (active: boolean) => ledger.collections.validators.all().find((item) => (item.status === 'active') === active)!.address
  const delegation = (validatorAddress: string) => ({ delegatorAddress: EXAMPLE_DELEGATOR, validatorAddress, amount: '1000000000000000000', signature: EXAMPLE_SIGNATURE })

  return [
    defineRoute({
      method: 'GET',
      path: '/v1/status',
      operationId: 'getStatus',
      summary: 'Read the network status',
      description:
        'The latest block of a chain that grows by one block per block time (6 s of the simulator clock by default): its height, hash and time. The hash is derived from the seed and the height, so a replay gives the same chain.',
      responses: { 200: { body: networkStatus } },
      examples: () => [{}],
      handle() {
        const block = ledger.chain().latestAt(world.clock.nowMs())
        // `timestamp` is the latest block's time, so all three fields describe one block.
        return json({ status: 'active', network_height: block.height, last_block_hash: block.hash, timestamp: block.time } satisfies z.infer<typeof networkStatus>)
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/tokens/{tokenId}',
      operationId: 'getToken',
      summary: 'Read a token',
      description:
        'Tokens come from a catalogue with fixed ids (`usdc`, `weth`...). `total_supply` is a decimal string in the smallest unit, as most supplies exceed 2^53. An unknown id is a 404 with `token_id`.',
      params: tokenParams,
      responses: { 200: { body: tokenView } },
      errors: [{ code: 'not_found', extra: unknownTokenExtra, description: 'No token with that id; `token_id` repeats it (D22).' }],
      examples: () => [{ params: { tokenId: ledger.collections.tokens.all()[0]!.token_id } }, { name: 'unknown', params: { tokenId: 'no-such-token' } }],
      handle({ params: { tokenId } }) {
        return json(ledger.token(tokenId) ?? throwUnknownToken(tokenId))
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/stake/delegate',
      operationId: 'delegateStake',
      summary: 'Delegate stake to a validator',
      description:
        'Accepted delegations (202) are included in the next block. The validator must exist (404) and be active (422). A signature is used once (409 on a replay); in the `eip191` and `eip712` signature modes it must be made by `delegatorAddress` (401 otherwise). Addresses are accepted in lower case, upper case or a correct EIP-55 checksum. What a wallet signs in the `eip191` and `eip712` modes is described in docs/behaviour.md (Area E).',
      // Read keeping every digit of `amount` (a JSON number may exceed 2^53).
      body: jsonBody(delegateBody, { parse: parseLosslessJson }),
      responses: { 202: { body: delegationResult } },
      errors: [
        { code: 'not_found', extra: unknownValidatorExtra, description: 'No validator with that address (D23).' },
        { code: 'validator_not_active', extra: inactiveValidatorExtra, description: 'The validator is inactive or jailed and takes no delegations (D23).' },
        {
          code: 'invalid_signature',
          extra: invalidSignatureExtra,
          description: 'In the `eip191` and `eip712` signature modes: the signature was not made by `delegatorAddress` (D23).',
        },
        { code: 'conflict', extra: usedSignatureExtra, description: 'The signature was used already (no replay, D23); sign again with another `nonce`.' },
      ],
      examples: () => [
        { summary: 'One token (18 decimals) to an active validator', body: delegation(someValidator(true)) },
        { name: 'inactive', summary: 'A validator that is not active', body: delegation(someValidator(false)) },
        { name: 'unknownValidator', summary: 'No such validator', body: delegation('0x0000000000000000000000000000000000000001') },
      ],
      async handle({ body }) {
        const accepted = await submitDelegation(ledger, body, { mode: settings.signatureMode, now: world.clock.now() })
        const validator = ledger.validator(accepted.validator_address)!
        return json(
          {
            transaction_hash: accepted.transaction_hash,
            message: `Delegation of ${accepted.amount} to ${validator.name} accepted for processing; it will be included in block ${accepted.block_height}.`,
          } satisfies z.infer<typeof delegationResult>,
          202,
        )
      },
    }),
  ]
}

function throwUnknownToken(id: string): never {
  throw notFound(`No token with id "${id}".`, { token_id: id })
}
