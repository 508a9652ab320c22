import type { OperationSchemas, RequestOf, ResponseOf } from '../../kernel/schema/operation-types.js'
import { delegateBody, delegationResult, networkStatus, tokenParams, tokenView } from './schemas.js'

/** Area E's operations (OpenAPI `ledger…` ids) and the schemas their routes use; a test holds the two together. */
export const ledgerOperations = {
  getStatus: { response: networkStatus },
  getToken: { params: tokenParams, response: tokenView },
  delegateStake: { body: delegateBody, response: delegationResult },
} satisfies Record<string, OperationSchemas>

type Ops = typeof ledgerOperations
export type LedgerGetStatusRequest = RequestOf<Ops['getStatus']>
export type LedgerGetStatusResponse = ResponseOf<Ops['getStatus']>
export type LedgerGetTokenRequest = RequestOf<Ops['getToken']>
export type LedgerGetTokenResponse = ResponseOf<Ops['getToken']>
export type LedgerDelegateStakeRequest = RequestOf<Ops['delegateStake']>
export type LedgerDelegateStakeResponse = ResponseOf<Ops['delegateStake']>
