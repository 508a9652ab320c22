import type { OperationsOf, RequestOf, ResponseOf } from '../../kernel/schema/operation-types.js'
import type { ledgerRoutes } from './routes.js'

/**
 * Area E's operations (OpenAPI `ledger…` ids), keyed by operation id, as its
 * routes declare them: the request and response types below are inferred from
 * the routes, so they cannot drift from what the server validates.
 */
export type LedgerOperations = OperationsOf<ReturnType<typeof ledgerRoutes>>

type Ops = LedgerOperations
export type LedgerGetStatusRequest = RequestOf<Ops['getStatus']>
export type LedgerGetStatusResponse = ResponseOf<Ops['getStatus']>
export type LedgerGetTokenRequest = RequestOf<Ops['getToken']>
export type LedgerGetTokenResponse = ResponseOf<Ops['getToken']>
export type LedgerDelegateStakeRequest = RequestOf<Ops['delegateStake']>
export type LedgerDelegateStakeResponse = ResponseOf<Ops['delegateStake']>
