import type { OperationsOf, RequestOf, ResponseOf } from '../../kernel/schema/operation-types.js'
import type { generalRoutes } from './routes.js'

/**
 * Area D's operations (OpenAPI `general…` ids), keyed by operation id, as its
 * routes declare them: the request and response types below are inferred from
 * the routes, so they cannot drift from what the server validates.
 */
export type GeneralOperations = OperationsOf<ReturnType<typeof generalRoutes>>

type Ops = GeneralOperations
export type GeneralLoginRequest = RequestOf<Ops['login']>
export type GeneralLoginResponse = ResponseOf<Ops['login']>
export type GeneralGetDataRequest = RequestOf<Ops['getData']>
export type GeneralGetDataResponse = ResponseOf<Ops['getData']>
export type GeneralUpdateResourceRequest = RequestOf<Ops['updateResource']>
export type GeneralUpdateResourceResponse = ResponseOf<Ops['updateResource']>
export type GeneralSendNotificationRequest = RequestOf<Ops['sendNotification']>
export type GeneralSendNotificationResponse = ResponseOf<Ops['sendNotification']>
