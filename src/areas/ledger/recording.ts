import type * as z from 'zod'
import { type AreaRecording, byStatus, type ObserveResult, pick, type RecordedExchange } from '../../world/recording.js'
import { checkAddress } from './chain/addresses.js'
import { parseLosslessJson, readBigInteger } from './staking/amounts.js'
import { LEDGER_SECTION, RECORDED_BLOCKS, RECORDED_DELEGATIONS, RECORDED_TOKENS, recordedLedger } from './recorded-ledger.js'
import type { delegationResult, networkStatus, token } from './schemas.js'

/** A token's fields as a scenario keeps them: all it shows. */
const TOKEN_FIELDS = ['token_id', 'name', 'symbol', 'decimals', 'total_supply', 'contract_address'] as const

/** The block an accepted delegation goes into, as the answer's message says it (D23). */
const INCLUDED_IN = /it will be included in block (\d+)\.$/

/**
 * An accepted delegation, from the request as sent (read keeping every digit
 * of `amount` and `nonce`) and its 202: never its signature, a secret. The
 * block that includes it is read from the message when it says so.
 */
function acceptedDelegation({ requestText, response }: RecordedExchange): ObserveResult {
  const request = (requestText === undefined ? undefined : safeParse(requestText)) as Record<string, unknown> | undefined
  const delegator = checkAddress(String(request?.delegatorAddress))
  const validator = checkAddress(String(request?.validatorAddress))
  const amount = readBigInteger(request?.amount)
  const nonce = request?.nonce === undefined ? { value: 0n } : readBigInteger(request.nonce, { allowZero: true })
  if (!('address' in delegator) || !('address' in validator) || !('value' in amount) || !('value' in nonce)) return { unmapped: 'the request of this 202 is not a delegation' }
  const result = response as z.infer<typeof delegationResult>
  const block = INCLUDED_IN.exec(result.message)?.[1]
  const fields = {
    delegator_address: delegator.address,
    validator_address: validator.address,
    amount: amount.value.toString(),
    nonce: nonce.value.toString(),
    ...(block === undefined ? {} : { block_height: Number(block) }),
  }
  return [{ kind: 'upsert', section: LEDGER_SECTION, collection: RECORDED_DELEGATIONS, id: result.transaction_hash, fields }]
}

function safeParse(text: string): unknown {
  try {
    return parseLosslessJson(text)
  } catch {
    return undefined
  }
}

/**
 * Area E's answers, read into the `ledger` section:
 *
 * - `GET /v1/status` 200: the latest block (height, hash, time), from which
 *   the recorded chain starts, with the hashes seen.
 * - `GET /v1/tokens/{id}` 200: the token, every digit of its supply; 404: gone.
 * - `POST /v1/stake/delegate` 202: the delegation (delegator, validator,
 *   amount and nonce as sent, the block the answer names), never its signature.
 *   No answer shows a validator's whole record, so none is recorded (the
 *   section says why the delegations are left out).
 *
 * @example
 * ledgerRecording.observe.getToken!(exchange) // [{ kind: 'upsert', collection: 'tokens', id: 'usdc', fields: { total_supply: '…', … } }]
 */
export const ledgerRecording: AreaRecording = {
  sections: [LEDGER_SECTION],
  observe: {
    getStatus: byStatus({
      200: ({ response }) => {
        const status = response as z.infer<typeof networkStatus>
        const fields = { height: status.network_height, hash: status.last_block_hash, time: status.timestamp }
        return [{ kind: 'upsert', section: LEDGER_SECTION, collection: RECORDED_BLOCKS, id: String(status.network_height), fields }]
      },
    }),
    getToken: byStatus({
      200: ({ response }) => {
        const shown = response as z.infer<typeof token>
        return [{ kind: 'upsert', section: LEDGER_SECTION, collection: RECORDED_TOKENS, id: shown.token_id, fields: pick(shown, TOKEN_FIELDS) }]
      },
      404: ({ params }) => [{ kind: 'remove', section: LEDGER_SECTION, collection: RECORDED_TOKENS, id: String(params.tokenId) }],
    }),
    delegateStake: byStatus({ 202: acceptedDelegation }),
  },
  section: recordedLedger,
}
