import * as z from 'zod'
import type { OperationSchemas, RequestOf, ResponseOf } from '../../kernel/schema/operation-types.js'
import { createUserBody, listUsersQuery, updateUserBody, userDetail, userParams, userSummary } from './schemas.js'

/** Area A's operations (OpenAPI `admin…` ids) and the schemas their routes use; a test holds the two together. */
export const adminOperations = {
  listUsers: { query: listUsersQuery, response: z.array(userSummary) },
  createUser: { body: createUserBody, response: userDetail },
  getUser: { params: userParams, response: userDetail },
  updateUser: { params: userParams, body: updateUserBody, response: userDetail },
  deleteUser: { params: userParams, response: undefined },
} satisfies Record<string, OperationSchemas>

type Ops = typeof adminOperations
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
