import type { AreaFactory } from '../area.js'
import { adminRoutes } from './routes.js'

/** Area A, user administration, mounted at `/admin` by default (D1). */
export const adminArea: AreaFactory = {
  id: 'admin',
  letter: 'A',
  title: 'User administration',
  prefix: '/admin',
  create: ({ world, accounts }) => ({ routes: adminRoutes(world, accounts) }),
}
export { adminOperations } from './operations.js'
export type {
  AdminListUsersRequest,
  AdminListUsersResponse,
  AdminCreateUserRequest,
  AdminCreateUserResponse,
  AdminGetUserRequest,
  AdminGetUserResponse,
  AdminUpdateUserRequest,
  AdminUpdateUserResponse,
  AdminDeleteUserRequest,
  AdminDeleteUserResponse,
} from './operations.js'
