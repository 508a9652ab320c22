import * as z from 'zod'
import type { OperationSchemas, RequestOf, ResponseOf } from '../../kernel/schema/operation-types.js'
import { coreUser, createUserBody, ingestionBatch, ingestionResult, listUsersQuery, productParams, productResponse, updateProductBody } from './schemas.js'

/** The default batch limit (`limits.ingestPoints`); a simulator may set another. */
const DEFAULT_INGEST_POINTS = 10_000

/** Area B's operations (OpenAPI `core…` ids) and the schemas their routes use; a test holds the two together. */
export const coreOperations = {
  listUsers: { query: listUsersQuery, response: z.array(coreUser) },
  createUser: { body: createUserBody, response: coreUser },
  getProduct: { params: productParams, response: productResponse },
  updateProduct: { params: productParams, body: updateProductBody, response: productResponse },
  ingestData: { body: ingestionBatch(DEFAULT_INGEST_POINTS), response: ingestionResult },
} satisfies Record<string, OperationSchemas>

type Ops = typeof coreOperations
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
