import type { OperationsOf, RequestOf, ResponseOf } from '../../kernel/schema/operation-types.js'
import type { adminRoutes } from './routes.js'

/**
 * Area A's operations (OpenAPI `admin…` ids), keyed by operation id, as its
 * routes declare them: the request and response types below are inferred from
 * the routes, so they cannot drift from what the server validates.
 */
export type AdminOperations = OperationsOf<ReturnType<typeof adminRoutes>>

type Ops = AdminOperations
export type AdminListUsersRequest = RequestOf<Ops['listUsers']>
export type AdminListUsersResponse = ResponseOf<Ops['listUsers']>
export type AdminCreateUserRequest = RequestOf<Ops['createUser']>
export type AdminCreateUserResponse = ResponseOf<Ops['createUser']>
export type AdminGetUserRequest = RequestOf<Ops['getUser']>
export type AdminGetUserResponse = ResponseOf<Ops['getUser']>
export type AdminUpdateUserRequest = RequestOf<Ops['updateUser']>
export type AdminUpdateUserResponse = ResponseOf<Ops['updateUser']>
export type AdminDeleteUserRequest = RequestOf<Ops['deleteUser']>
export type AdminDeleteUserResponse = ResponseOf<Ops['deleteUser']>
