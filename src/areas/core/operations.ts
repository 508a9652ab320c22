import type { OperationsOf, RequestOf, ResponseOf } from '../../kernel/schema/operation-types.js'
import type { coreRoutes } from './routes.js'

/**
 * Area B's operations (OpenAPI `core…` ids), keyed by operation id, as its
 * routes declare them: the request and response types below are inferred from
 * the routes, so they cannot drift from what the server validates.
 */
export type CoreOperations = OperationsOf<ReturnType<typeof coreRoutes>>

type Ops = CoreOperations
export type CoreListUsersRequest = RequestOf<Ops['listUsers']>
export type CoreListUsersResponse = ResponseOf<Ops['listUsers']>
export type CoreCreateUserRequest = RequestOf<Ops['createUser']>
export type CoreCreateUserResponse = ResponseOf<Ops['createUser']>
export type CoreGetProductRequest = RequestOf<Ops['getProduct']>
export type CoreGetProductResponse = ResponseOf<Ops['getProduct']>
export type CoreUpdateProductRequest = RequestOf<Ops['updateProduct']>
export type CoreUpdateProductResponse = ResponseOf<Ops['updateProduct']>
export type CoreIngestDataRequest = RequestOf<Ops['ingestData']>
export type CoreIngestDataResponse = ResponseOf<Ops['ingestData']>
