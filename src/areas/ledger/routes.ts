import { notFound } from '../../kernel/api-error.js'
import { readJsonBody } from '../../kernel/json-body.js'
import { json } from '../../kernel/json-response.js'
import type { RouteDefinition } from '../../kernel/route.js'
import { parseOrThrow } from '../../kernel/validate.js'
import type { World } from '../../world/world.js'
import { parseLosslessJson } from './amounts.js'
import type { Ledger } from './ledger.js'
import type { LedgerSettings } from './ledger-options.js'
import { delegateBody } from './schemas.js'
import { submitDelegation } from './stake-delegation.js'

/** Area E: the ledger network under `/v1`; success codes per D10. */
export function ledgerRoutes(world: World, ledger: Ledger, settings: LedgerSettings): RouteDefinition[] {
  const limit = world.limits.bodyBytes

  return [
    {
      method: 'GET',
      path: '/v1/status',
      summary: 'Network status: the latest block of a chain that grows with the clock (D21)',
      handle() {
        const block = ledger.chain().latestAt(world.clock.now().getTime())
        // `timestamp` is the latest block's time, so all three fields describe one block.
        return json({ status: 'active', network_height: block.height, last_block_hash: block.hash, timestamp: block.time })
      },
    },
    {
      method: 'GET',
      path: '/v1/tokens/{tokenId}',
      summary: 'Read a token (D22)',
      handle({ params }) {
        const id = params.tokenId!
        return json(ledger.token(id) ?? throwUnknownToken(id))
      },
    },
    {
      method: 'POST',
      path: '/v1/stake/delegate',
      summary: 'Delegate stake to a validator with a signed request; included in the next block (D23)',
      async handle({ request }) {
        const body = parseOrThrow(delegateBody, await readJsonBody(request, { limit, parse: parseLosslessJson }))
        const accepted = await submitDelegation(ledger, body, { mode: settings.signatureMode, now: world.clock.now() })
        const validator = ledger.validator(accepted.validator_address)!
        return json(
          {
            transaction_hash: accepted.transaction_hash,
            message: `Delegation of ${accepted.amount} to ${validator.name} accepted for processing; it will be included in block ${accepted.block_height}.`,
          },
          202,
        )
      },
    },
  ]
}

function throwUnknownToken(id: string): never {
  throw notFound(`No token with id "${id}".`, { token_id: id })
}
